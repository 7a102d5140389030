import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AgentpayError, GatewayProtocolError, GatewayUnreachableError, PaymentOutcomeUnknownError } from '../../src/errors.js';
import { type ExchangeEvent, GatewayClient, type GatewayClientOptions } from '../../src/gateway/client.js';
import { DirectTransport } from '../../src/gateway/direct-transport.js';
import type { Transport } from '../../src/gateway/http.js';
import { undiciTransport } from '../../src/gateway/undici-transport.js';
import { md5Hex } from '../../src/protocol/password.js';
import { answer, closedPortUrl, envelopeText, type FakeGateway, type FakeHandler, startFakeGateway } from '../helpers/fake-gateway.js';
import { type ForwardProxy, startForwardProxy } from '../helpers/forward-proxy.js';
import { paymentAcceptedKoi8r, windows1251 } from '../helpers/legacy-charsets.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

let proxy: ForwardProxy;
beforeAll(async () => {
  proxy = await startForwardProxy();
});
afterAll(() => proxy.close());

async function gateway(handler: FakeHandler): Promise<FakeGateway> {
  const fake = await startFakeGateway(handler);
  cleanups.push(fake.close);
  return fake;
}

/** A way to the gateway: its transport, and a gateway URL whose first hop refuses the connection. */
interface Route {
  transport(timeoutMs: number): Transport;
  refused(timeoutMs: number): Promise<{ baseUrl: string; transport: Transport }>;
}

/** Every transport keeps one contract, so every case runs over each. */
const routes: [string, Route][] = [
  [
    'a direct connection (node:http)',
    {
      transport: (timeoutMs) => new DirectTransport({ timeoutMs }),
      refused: async (timeoutMs) => ({ baseUrl: await closedPortUrl(), transport: new DirectTransport({ timeoutMs }) }),
    },
  ],
  [
    'a direct connection, in a batch (undici)',
    {
      transport: (timeoutMs) => undiciTransport({ timeoutMs }, { kind: 'direct' }),
      refused: async (timeoutMs) => ({ baseUrl: await closedPortUrl(), transport: undiciTransport({ timeoutMs }, { kind: 'direct' }) }),
    },
  ],
  [
    'a proxy (undici)',
    {
      transport: (timeoutMs) => undiciTransport({ timeoutMs }, { kind: 'explicit', url: proxy.url }),
      // The proxy itself refuses: the request never left this machine.
      refused: async (timeoutMs) => ({ baseUrl: 'http://127.0.0.1:9', transport: undiciTransport({ timeoutMs }, { kind: 'explicit', url: await closedPortUrl() }) }),
    },
  ],
];

function makeClient(baseUrl: string, transport: Transport, options: Partial<GatewayClientOptions> = {}): GatewayClient {
  const made = new GatewayClient({
    baseUrl,
    credentials: { agentId: '77', wirePassword: 'pw' },
    timeoutMs: 5000,
    dateFormat: 'local',
    transport,
    ...options,
  });
  cleanups.push(() => transport.close());
  return made;
}

async function failure(promise: Promise<unknown>): Promise<AgentpayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentpayError);
    return error as AgentpayError;
  }
  throw new Error('expected the call to fail');
}

const payment = { service: '201', account: '7011234567', amount: '150.50', currency: 'KZT', transactionId: '4242' };
const content = '{"Service":"201","account":"7011234567","Amount":150.50,"Currency":"KZT","ExchangeRate":1,"ServiceCurrency":"KZT"}';

describe.each(routes)('over %s', (_name, route) => {
  const client = (baseUrl: string, options: Partial<GatewayClientOptions> = {}) => makeClient(baseUrl, route.transport(options.timeoutMs ?? 5000), options);
  const refusedClient = async (options: Partial<GatewayClientOptions> = {}) => {
    const { baseUrl, transport } = await route.refused(options.timeoutMs ?? 5000);
    return makeClient(baseUrl, transport, options);
  };

  describe('answers any spec-following server gives', () => {
    it('JSON served as text/html is understood', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, windows1251(envelopeText(form, { content })), 'text/html; charset=windows-1251'));
      const result = await client(fake.baseUrl).status('4242');
      expect(result).toMatchObject({ status: '10', message: 'Успех', transactionId: '4242', amount: '150.50', exchangeRate: '1' });
    });

    it('JSON that starts with a UTF-8 byte order mark is understood, for Status and Payment alike', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, `\uFEFF${envelopeText(form, { content })}`, 'text/html; charset=utf-8'));
      expect(await client(fake.baseUrl).status('4242')).toMatchObject({ status: '10', transactionId: '4242' });
      expect(await client(fake.baseUrl).payment(payment)).toMatchObject({ status: '10', requestId: '9007199254740993' });
    });

    it('a RequestID of 9007199254740993 is reported exactly', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, envelopeText(form, { requestId: '9007199254740993' })));
      expect((await client(fake.baseUrl).status('4242')).requestId).toBe('9007199254740993');
      expect((await client(fake.baseUrl).payment(payment)).requestId).toBe('9007199254740993');
    });

    it('an OrderAmount of "10.630" is sent as Amount "10.630"', async () => {
      const extras = JSON.stringify([{ FieldName: 'Invoice-1', FieldValue: JSON.stringify({ InvoiceId: 7010, OrderAmount: '10.630', InvoiceName: 'Gift card' }) }]);
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, envelopeText(form, { content: form.get('RequestType') === 'AccountCheck' ? `{"Extras":${extras}}` : content })),
      );
      const c = client(fake.baseUrl);
      const { vouchers } = await c.accountCheck({ service: '102', account: 'a', amount: '0', currency: 'USD' });
      expect(vouchers?.[0]?.orderAmount).toBe('10.630');
      await c.payment({ ...payment, service: '102', currency: 'USD', amount: vouchers![0]!.orderAmount, invoiceId: vouchers![0]!.invoiceId });
      const sent = fake.received.at(-1)!;
      expect(sent.get('Amount')).toBe('10.630');
      expect(sent.get('Extra[0].Value')).toBe('7010');
      expect(fake.received[0]?.get('Amount')).toBe('0');
    });

    it('a refusal is an answer, not an error', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, envelopeText(form, { status: 25, message: 'not found', requestId: '0' })));
      expect(await client(fake.baseUrl).status('4242')).toMatchObject({ status: '25', message: 'not found' });
    });
  });

  describe('the charset the answer declares', () => {
    const refusal = 'Ошибка: счёт не найден';

    it('a windows-1251 Message is read as written, for AccountCheck, Status and Payment', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(res, 200, windows1251(envelopeText(form, { status: 20, message: refusal })), 'application/json; charset=windows-1251'),
      );
      const c = client(fake.baseUrl);
      expect((await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' })).answer).toMatchObject({ status: '20', message: refusal });
      expect(await c.status('4242')).toMatchObject({ status: '20', message: refusal });
      expect(await c.payment(payment)).toMatchObject({ status: '20', message: refusal });
    });

    it('koi8-r and utf-16 too', async () => {
      const koi8r = Buffer.concat([Buffer.from('{"ResponseStatus":10,"Message":"'), paymentAcceptedKoi8r.bytes, Buffer.from('"}')]);
      const koi8rGateway = await gateway((_form, _req, res) => answer(res, 200, koi8r, 'application/json; charset=koi8-r'));
      expect((await client(koi8rGateway.baseUrl).status('4242')).message).toBe(paymentAcceptedKoi8r.text);
      const utf16Gateway = await gateway((form, _req, res) =>
        answer(res, 200, Buffer.from(envelopeText(form, { message: refusal }), 'utf16le'), 'application/json; charset=utf-16'),
      );
      expect((await client(utf16Gateway.baseUrl).status('4242')).message).toBe(refusal);
    });

    it('an unknown charset is read as UTF-8', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, envelopeText(form, { message: refusal }), 'application/json; charset=x-martian'));
      expect((await client(fake.baseUrl).status('4242')).message).toBe(refusal);
    });

    it('the size limit counts bytes, not characters', async () => {
      const body = Buffer.from(`{"ResponseStatus":10,"Message":"${'я'.repeat(600)}"}`, 'utf16le');
      const fake = await gateway((_form, _req, res) => answer(res, 200, body, 'application/json; charset=utf-16le'));
      const error = await failure(client(fake.baseUrl, { maxBodyBytes: 1024 }).status('4242'));
      expect(error.message).toContain('larger than 1024 bytes');
    });

    it('the --verbose sample of a body not understood is decoded by its charset', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, windows1251('<html>Сервер недоступен</html>'), 'text/html; charset=windows-1251'));
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
      const fake = await gateway((_form, _req, res) => answer(res, 200, `{${echo}"RequestID":0,"ResponseStatus":30,"Message":"Счёт не найден"}`));
      const c = client(fake.baseUrl);
      const check = await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' });
      expect(check.answer).toMatchObject({ status: '30', message: 'Счёт не найден', transactionId: undefined });
      expect(check.transactionId).toBe(fake.received[0]?.get('TransactionID'));
      expect(await c.status('4242')).toMatchObject({ status: '30', message: 'Счёт не найден', transactionId: undefined });
      expect(await c.payment(payment)).toMatchObject({ status: '30', message: 'Счёт не найден', transactionId: undefined });
    });

    it.each([
      ['1', '1'],
      ['"4243"', '"4243"'],
    ])('an echo of another id (%s) is still not understood', async (_name, echo) => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, `{"TransactinID":${echo},"ResponseStatus":30,"Message":"x"}`));
      const c = client(fake.baseUrl);
      const checkError = await failure(c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }));
      expect(checkError).toBeInstanceOf(GatewayProtocolError);
      expect(checkError.message).toMatch(/about transaction \d+, not \d+/);
      const paymentError = await failure(c.payment(payment));
      expect(paymentError).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(paymentError.message).toMatch(/not 4242/);
    });
  });

  describe('read-only requests that go wrong (exit 4 and 5)', () => {
    it('HTTP 5xx on Status is GatewayUnreachableError (exit 4)', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 503, 'Service Unavailable', 'text/plain'));
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.exitCode).toBe(4);
      expect(error.message).toContain('HTTP 503');
    });

    it('a 200 that is not JSON is GatewayProtocolError (exit 5), with a sample of the body', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, '<html>maintenance pw</html>', 'text/html'));
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayProtocolError);
      expect(error.exitCode).toBe(5);
      expect((error as GatewayProtocolError).bodySample).toBe('<html>maintenance ***</html>');
      const checkError = await failure(client(fake.baseUrl).accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }));
      expect(checkError.exitCode).toBe(5);
    });

    it('an answer about another transaction is not trusted (exit 5)', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, '{"TransactinID": 1, "ResponseStatus": 10}'));
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error.exitCode).toBe(5);
      expect(error.message).toMatch(/transaction 1, not 4242/);
    });

    it('a voucher list that cannot be parsed is exit 5', async () => {
      const fake = await gateway((form, _req, res) => answer(res, 200, envelopeText(form, { content: '{"Extras":[{"FieldName":"Invoice-1","FieldValue":"{broken"}]}' })));
      const error = await failure(client(fake.baseUrl).accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }));
      expect(error).toBeInstanceOf(GatewayProtocolError);
      expect(error.message).toMatch(/Invoice-1/);
    });

    it('an answer over the size limit is exit 5', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, `{"ResponseStatus": 10, "Message": "${'x'.repeat(4096)}"}`));
      const error = await failure(client(fake.baseUrl, { maxBodyBytes: 1024 }).status('4242'));
      expect(error.exitCode).toBe(5);
    });

    it('connection refused on Status is exit 4', async () => {
      const error = await failure((await refusedClient()).status('4242'));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.message).toMatch(/connection refused/);
    });

    it('a server that never answers times out (exit 4)', async () => {
      const fake = await gateway(() => undefined);
      const error = await failure(client(fake.baseUrl, { timeoutMs: 300 }).status('4242'));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.message).toMatch(/within 300 ms/);
      expect(fake.received).toHaveLength(1);
    });
  });

  describe('a payment whose answer is lost is unknown (exit 3), never failed', () => {
    const lostAnswers: [string, FakeHandler, RegExp][] = [
      ['HTTP 500', (_form, _req, res) => answer(res, 500, 'oops', 'text/plain'), /HTTP 500/],
      ['a connection destroyed after the request', (_form, req) => req.socket.destroy(), /connection was closed/],
      ['garbage', (_form, _req, res) => answer(res, 200, 'garbage\u0000\u0001'), /not understood/],
      ['an envelope without ResponseStatus', (form, _req, res) => answer(res, 200, `{"TransactinID": ${form.get('TransactionID')}}`), /not understood/],
      ['an answer about another transaction', (_form, _req, res) => answer(res, 200, '{"TransactinID": 1, "ResponseStatus": 10}'), /not 4242/],
      ['an answer over the size limit', (_form, _req, res) => answer(res, 200, `{"Padding":"${'x'.repeat(2 * 1024 * 1024)}"}`), /larger than 1048576 bytes/],
    ];

    it.each(lostAnswers)('%s', async (_name, handler, why) => {
      const fake = await gateway(handler);
      const error = await failure(client(fake.baseUrl).payment(payment));
      expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(error.exitCode).toBe(3);
      expect((error as PaymentOutcomeUnknownError).transactionId).toBe('4242');
      expect(error.message).toMatch(why);
      expect(error.hint).toContain('agentpay status 4242');
      expect(fake.received).toHaveLength(1);
    });

    it('a time-out with a server that never answers', async () => {
      const fake = await gateway(() => undefined);
      const error = await failure(client(fake.baseUrl, { timeoutMs: 300 }).payment(payment));
      expect(error).toBeInstanceOf(PaymentOutcomeUnknownError);
      expect(error.message).toMatch(/within 300 ms/);
      expect(fake.received).toHaveLength(1);
    });

    it('connection refused means no payment was sent (exit 4)', async () => {
      const error = await failure((await refusedClient()).payment(payment));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.exitCode).toBe(4);
      expect(error.message).toMatch(/no payment was sent/);
    });
  });

  describe('the verbose trace', () => {
    const password = 'Tr1cky&pass=word';
    const digest = md5Hex(password);

    it.each(['plain', 'md5'] as const)('never holds the password nor its MD5 (format %s)', async (format) => {
      // A gateway that echoes everything it was sent, credentials included, in every answer.
      const fake = await gateway((form, _req, res) => answer(res, 200, envelopeText(form, { message: `you sent ${form.get('AgentPassword')} (also ${password} and ${digest})` })));
      const events: ExchangeEvent[] = [];
      const c = client(fake.baseUrl, {
        credentials: { agentId: '77', wirePassword: format === 'md5' ? digest : password },
        secrets: [password, digest],
        onExchange: (event) => events.push(event),
      });
      await c.status('4242');
      await c.payment(payment);
      await c.accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' });
      const trace = JSON.stringify(events);
      expect(events.map((e) => `${e.direction} ${e.operation}`)).toEqual([
        'request Status',
        'response Status',
        'request Payment',
        'response Payment',
        'request AccountCheck',
        'response AccountCheck',
      ]);
      expect(trace).toContain('***');
      expect(trace).not.toContain(password);
      expect(trace).not.toContain(digest);
      expect(trace).not.toContain(encodeURIComponent(password));
      // The server did get the real credential.
      expect(fake.received[0]?.get('AgentPassword')).toBe(format === 'md5' ? digest : password);
    });

    it('the body sample of an answer not understood holds no part of the password, wherever the cut falls', async () => {
      const secret = 'correct-horse-battery-staple';
      for (const offset of [0, 180, 190, 199]) {
        const fake = await gateway((_form, _req, res) => answer(res, 200, `${'x'.repeat(offset)}${secret} and more`, 'text/html'));
        const error = (await failure(client(fake.baseUrl, { credentials: { agentId: '77', wirePassword: secret } }).status('1'))) as GatewayProtocolError;
        expect(error.bodySample, `offset ${offset}`).not.toContain(secret.slice(0, 8));
        expect(error.bodySample).toContain(offset > 0 ? 'x' : '***');
      }
    });

    it('traces a failure without the password', async () => {
      const events: ExchangeEvent[] = [];
      await failure((await refusedClient({ onExchange: (event) => events.push(event) })).status('1'));
      expect(events.map((e) => e.direction)).toEqual(['request', 'failure']);
      expect(JSON.stringify(events)).not.toContain('"pw"');
    });
  });
});

describe('the proxy route', () => {
  it('did carry its cases through the proxy', () => {
    expect(proxy.forwarded.length).toBeGreaterThan(30);
  });
});
