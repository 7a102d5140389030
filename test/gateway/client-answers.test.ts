// The gateway client over every transport (helpers/transport-routes.ts): the answers a
// spec-following server may give, the charset an answer declares, error envelopes' TransactinID.

import { describe, expect, it } from 'vitest';
import { GatewayProtocolError, GatewayUnreachableError, PaymentOutcomeUnknownError } from '../../src/errors.js';
import type { GatewayClientOptions } from '../../src/gateway/client.js';
import { answer, envelopeText } from '../helpers/fake-gateway.js';
import { paymentAcceptedKoi8r, windows1251 } from '../helpers/legacy-charsets.js';
import { content, failure, payment, transportRoutes } from '../helpers/transport-routes.js';

const { routes, gateway, makeClient, proxy } = transportRoutes();

describe.each(routes)('over %s', (_name, route) => {
  const client = (baseUrl: string, options: Partial<GatewayClientOptions> = {}) =>
    makeClient(baseUrl, route.transport(options.timeoutMs ?? 5000), options);

  describe('answers any spec-following server gives', () => {
    it('JSON served as text/html is understood', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, windows1251(envelopeText(form, { content })), 'text/html; charset=windows-1251'),
      );
      const result = await client(fake.baseUrl).status('4242');
      expect(result).toMatchObject({
        status: '10',
        message: 'Успех',
        transactionId: '4242',
        amount: '150.50',
        exchangeRate: '1',
      });
    });

    it('JSON that starts with a UTF-8 byte order mark is understood, for Status and Payment alike', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, `\uFEFF${envelopeText(form, { content })}`, 'text/html; charset=utf-8'),
      );
      expect(await client(fake.baseUrl).status('4242')).toMatchObject({ status: '10', transactionId: '4242' });
      expect(await client(fake.baseUrl).payment(payment)).toMatchObject({
        status: '10',
        requestId: '9007199254740993',
      });
    });

    it('a RequestID of 9007199254740993 is reported exactly', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, envelopeText(form, { requestId: '9007199254740993' })),
      );
      expect((await client(fake.baseUrl).status('4242')).requestId).toBe('9007199254740993');
      expect((await client(fake.baseUrl).payment(payment)).requestId).toBe('9007199254740993');
    });

    it('an OrderAmount of "10.630" is sent as Amount "10.630"', async () => {
      const extras = JSON.stringify([
        {
          FieldName: 'Invoice-1',
          FieldValue: JSON.stringify({ InvoiceId: 7010, OrderAmount: '10.630', InvoiceName: 'Gift card' }),
        },
      ]);
      const fake = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          envelopeText(form, {
            content: form.get('RequestType') === 'AccountCheck' ? `{"Extras":${extras}}` : content,
          }),
        ),
      );
      const c = client(fake.baseUrl);
      const { vouchers } = await c.accountCheck({ service: '102', account: 'a', amount: '0', currency: 'USD' });
      expect(vouchers?.[0]?.orderAmount).toBe('10.630');
      await c.payment({
        ...payment,
        service: '102',
        currency: 'USD',
        amount: vouchers![0]!.orderAmount,
        invoiceId: vouchers![0]!.invoiceId,
      });
      const sent = fake.received.at(-1)!;
      expect(sent.get('Amount')).toBe('10.630');
      expect(sent.get('Extra[0].Value')).toBe('7010');
      expect(fake.received[0]?.get('Amount')).toBe('0');
    });

    it('a refusal is an answer, not an error', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, envelopeText(form, { status: 25, message: 'not found', requestId: '0' })),
      );
      expect(await client(fake.baseUrl).status('4242')).toMatchObject({ status: '25', message: 'not found' });
    });
  });

  describe('the charset the answer declares', () => {
    const refusal = 'Ошибка: счёт не найден';

    it('a windows-1251 Message is read as written, for AccountCheck, Status and Payment', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          windows1251(envelopeText(form, { status: 20, message: refusal })),
          'application/json; charset=windows-1251',
        ),
      );
      const c = client(fake.baseUrl);
      expect(
        (await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' })).answer,
      ).toMatchObject({ status: '20', message: refusal });
      expect(await c.status('4242')).toMatchObject({ status: '20', message: refusal });
      expect(await c.payment(payment)).toMatchObject({ status: '20', message: refusal });
    });

    it('koi8-r and utf-16 too', async () => {
      const koi8r = Buffer.concat([
        Buffer.from('{"ResponseStatus":10,"Message":"'),
        paymentAcceptedKoi8r.bytes,
        Buffer.from('"}'),
      ]);
      const koi8rGateway = await gateway((_form, _req, res) =>
        answer(res, 200, koi8r, 'application/json; charset=koi8-r'),
      );
      expect((await client(koi8rGateway.baseUrl).status('4242')).message).toBe(paymentAcceptedKoi8r.text);
      const utf16Gateway = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          Buffer.from(envelopeText(form, { message: refusal }), 'utf16le'),
          'application/json; charset=utf-16',
        ),
      );
      expect((await client(utf16Gateway.baseUrl).status('4242')).message).toBe(refusal);
    });

    it('an unknown charset is read as UTF-8', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, envelopeText(form, { message: refusal }), 'application/json; charset=x-martian'),
      );
      expect((await client(fake.baseUrl).status('4242')).message).toBe(refusal);
    });

    it('the size limit counts bytes, not characters', async () => {
      const body = Buffer.from(`{"ResponseStatus":10,"Message":"${'я'.repeat(600)}"}`, 'utf16le');
      const fake = await gateway((_form, _req, res) => answer(res, 200, body, 'application/json; charset=utf-16le'));
      const error = await failure(client(fake.baseUrl, { maxBodyBytes: 1024 }).status('4242'));
      expect(error.message).toContain('larger than 1024 bytes');
    });

    it('the --verbose sample of a body not understood is decoded by its charset', async () => {
      const fake = await gateway((_form, _req, res) =>
        answer(res, 200, windows1251('<html>Сервер недоступен</html>'), 'text/html; charset=windows-1251'),
      );
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayProtocolError);
      expect(error.bodySample).toBe('<html>Сервер недоступен</html>');
    });

    it('so is the sample of a body cut short', async () => {
      const fake = await gateway((_form, req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=windows-1251', 'content-length': '1000' });
        res.write(windows1251('{"Message":"Ошибка'), () => setTimeout(() => req.socket.destroy(), 50));
      });
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.bodySample).toBe('{"Message":"Ошибка');
    });
  });

  describe('an error envelope that echoes TransactinID 0 or null, or none', () => {
    const echoes: [string, string][] = [
      ['0', '"TransactinID":0,'],
      ['null', '"TransactinID":null,'],
      ['none', ''],
      ['"0"', '"TransactinID":"0",'],
      ['"00"', '"TransactinID":"00",'],
      ['TransactionID 0', '"TransactionID":0,'],
    ];

    it.each(echoes)('echo %s: the answer stands, and names no transaction of its own', async (_name, echo) => {
      const fake = await gateway((_form, _req, res) =>
        answer(res, 200, `{${echo}"RequestID":0,"ResponseStatus":30,"Message":"Счёт не найден"}`),
      );
      const c = client(fake.baseUrl);
      const check = await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' });
      expect(check.answer).toMatchObject({ status: '30', message: 'Счёт не найден', transactionId: undefined });
      expect(check.transactionId).toBe(fake.received[0]?.get('TransactionID'));
      expect(await c.status('4242')).toMatchObject({
        status: '30',
        message: 'Счёт не найден',
        transactionId: undefined,
      });
      expect(await c.payment(payment)).toMatchObject({
        status: '30',
        message: 'Счёт не найден',
        transactionId: undefined,
      });
    });

    it.each([
      ['1', '1'],
      ['"4243"', '"4243"'],
    ])('an echo of another id (%s) is still not understood', async (_name, echo) => {
      const fake = await gateway((_form, _req, res) =>
        answer(res, 200, `{"TransactinID":${echo},"ResponseStatus":30,"Message":"x"}`),
      );
      const c = client(fake.baseUrl);
      const checkError = await failure(c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }));
      expect(checkError).toBeInstanceOf(GatewayProtocolError);
      expect(checkError.message).toMatch(/about transaction \d+, not \d+/);
      const paymentError = await failure(c.payment(payment));
      expect(paymentError).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(paymentError.message).toMatch(/not 4242/);
    });

    it("an answer whose ResponseType names another operation proves nothing: a payment's is unknown", async () => {
      // A gateway that read RequestType otherwise: it answers every request as an AccountCheck, with success.
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, envelopeText(form).replace(/"ResponseType":"[^"]*"/, '"ResponseType":"accountcheck "')),
      );
      const c = client(fake.baseUrl);
      const paymentError = await failure(c.payment(payment));
      expect(paymentError).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(paymentError.message).toContain('its ResponseType "accountcheck " answers AccountCheck, not Payment');
      expect(await failure(c.status('4242'))).toBeInstanceOf(GatewayProtocolError);
      expect((await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' })).answer.status).toBe(
        '10',
      );
    });

    it.each(['Pay', 'PAYMENT', 'PaymentResult', ''])('a ResponseType of %j for a Payment is its own', async (type) => {
      const fake = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          envelopeText(form).replace(/"ResponseType":"[^"]*"/, `"ResponseType":${JSON.stringify(type)}`),
        ),
      );
      expect(await client(fake.baseUrl).payment(payment)).toMatchObject({ status: '10', transactionId: '4242' });
    });
  });
});

describe('the proxy route', () => {
  it('did carry its cases through the proxy', () => {
    expect(proxy().forwarded.length).toBeGreaterThan(30);
  });
});
