// The gateway client over every transport (helpers/transport-routes.ts) when things go wrong:
// read-only requests (exit 4 and 5), a payment whose answer is lost (exit 3), the verbose trace.

import { describe, expect, it } from 'vitest';
import { GatewayProtocolError, GatewayUnreachableError, PaymentOutcomeUnknownError } from '../../src/errors.js';
import type { ExchangeEvent, GatewayClientOptions } from '../../src/gateway/client.js';
import { md5Hex } from '../../src/protocol/password.js';
import { answer, envelopeText, type FakeHandler } from '../helpers/fake-gateway.js';
import { failure, payment, transportRoutes } from '../helpers/transport-routes.js';

const { routes, gateway, makeClient } = transportRoutes();

describe.each(routes)('over %s', (_name, route) => {
  const client = (baseUrl: string, options: Partial<GatewayClientOptions> = {}) =>
    makeClient(baseUrl, route.transport(options.timeoutMs ?? 5000), options);
  const refusedClient = async (options: Partial<GatewayClientOptions> = {}) => {
    const { baseUrl, transport } = await route.refused(options.timeoutMs ?? 5000);
    return makeClient(baseUrl, transport, options);
  };

  describe('read-only requests that go wrong (exit 4 and 5)', () => {
    it('HTTP 5xx on Status is GatewayUnreachableError (exit 4)', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 503, 'Service Unavailable', 'text/plain'));
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayUnreachableError);
      expect(error.exitCode).toBe(4);
      expect(error.message).toContain('HTTP 503');
    });

    it('a 200 that is not JSON is GatewayProtocolError (exit 5), with a sample of the body', async () => {
      const fake = await gateway((_form, _req, res) =>
        answer(res, 200, '<html>maintenance pw-of-the-routes</html>', 'text/html'),
      );
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error).toBeInstanceOf(GatewayProtocolError);
      expect(error.exitCode).toBe(5);
      expect((error as GatewayProtocolError).bodySample).toBe('<html>maintenance ***</html>');
      const checkError = await failure(
        client(fake.baseUrl).accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }),
      );
      expect(checkError.exitCode).toBe(5);
    });

    it('an answer about another transaction is not trusted (exit 5)', async () => {
      const fake = await gateway((_form, _req, res) => answer(res, 200, '{"TransactinID": 1, "ResponseStatus": 10}'));
      const error = await failure(client(fake.baseUrl).status('4242'));
      expect(error.exitCode).toBe(5);
      expect(error.message).toMatch(/transaction 1, not 4242/);
    });

    it('a voucher list that cannot be parsed is exit 5', async () => {
      const fake = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          envelopeText(form, { content: '{"Extras":[{"FieldName":"Invoice-1","FieldValue":"{broken"}]}' }),
        ),
      );
      const error = await failure(
        client(fake.baseUrl).accountCheck({ service: '101', account: 'a', amount: '0', currency: 'KZT' }),
      );
      expect(error).toBeInstanceOf(GatewayProtocolError);
      expect(error.message).toMatch(/Invoice-1/);
    });

    it('an answer over the size limit is exit 5', async () => {
      const fake = await gateway((_form, _req, res) =>
        answer(res, 200, `{"ResponseStatus": 10, "Message": "${'x'.repeat(4096)}"}`),
      );
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
      [
        'an envelope without ResponseStatus',
        (form, _req, res) => answer(res, 200, `{"TransactinID": ${form.get('TransactionID')}}`),
        /not understood/,
      ],
      [
        'an answer about another transaction',
        (_form, _req, res) => answer(res, 200, '{"TransactinID": 1, "ResponseStatus": 10}'),
        /not 4242/,
      ],
      [
        'an answer over the size limit',
        (_form, _req, res) => answer(res, 200, `{"Padding":"${'x'.repeat(2 * 1024 * 1024)}"}`),
        /larger than 1048576 bytes/,
      ],
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
      const fake = await gateway((form, _req, res) =>
        answer(
          res,
          200,
          envelopeText(form, { message: `you sent ${form.get('AgentPassword')} (also ${password} and ${digest})` }),
        ),
      );
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
        const fake = await gateway((_form, _req, res) =>
          answer(res, 200, `${'x'.repeat(offset)}${secret} and more`, 'text/html'),
        );
        const error = (await failure(
          client(fake.baseUrl, { credentials: { agentId: '77', wirePassword: secret } }).status('1'),
        )) as GatewayProtocolError;
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
