import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/client.js';
import { payAndSettle } from '../../src/gateway/settle.js';
import { listenOnLoopback } from '../helpers/loopback.js';

/** A gateway that loses the first Payment before committing it, then behaves. */
async function forgetfulGateway(): Promise<{ baseUrl: string; requests: URLSearchParams[] }> {
  const requests: URLSearchParams[] = [];
  let committed = false;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push(form);
      const id = form.get('TransactionID');
      const type = form.get('RequestType');
      if (type === 'Payment' && requests.filter((f) => f.get('RequestType') === 'Payment').length === 1) {
        request.socket.destroy();
        return;
      }
      if (type === 'Payment') committed = true;
      const status = type === 'Status' && !committed ? 25 : 10;
      response.setHeader('content-type', 'text/html');
      response.end(`{"TransactinID":${id},"RequestID":9007199254740995,"ResponseType":"${type}","ResponseStatus":${status},"Message":"m"}`);
    });
  });
  const listener = await listenOnLoopback(server);
  closers.push(listener.close);
  return { baseUrl: `http://127.0.0.1:${listener.port}`, requests };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('payAndSettle', () => {
  it('re-sends the same TransactionID when the gateway never saw the payment, and reports its answer', async () => {
    const gateway = await forgetfulGateway();
    const client = new GatewayClient({
      baseUrl: gateway.baseUrl,
      credentials: { agentId: '1', wirePassword: 'pw' },
      timeoutMs: 2000,
      dateFormat: 'local',
    });
    const events: string[] = [];
    const input = { service: '201', account: 'a', amount: '10.630', currency: 'USD', transactionId: '123456789' };
    const settled = await payAndSettle(client, input, {
      attempts: 3,
      delayMs: 10,
      codes: { pending: new Set(['11']), notFound: new Set(['25']), failed: new Set() },
      onEvent: (event) => events.push(event.kind),
    });
    await client.close();
    expect(settled.view).toMatchObject({ state: 'success', requestId: '9007199254740995', transactionId: '123456789' });
    expect(events).toEqual(['lost', 'lookup', 'not-found-resend']);
    expect(gateway.requests.map((f) => f.get('RequestType'))).toEqual(['Payment', 'Status', 'Payment']);
    // Never a new TransactionID, and the amount byte for byte each time.
    expect(new Set(gateway.requests.map((f) => f.get('TransactionID')))).toEqual(new Set(['123456789']));
    expect(gateway.requests.filter((f) => f.get('RequestType') === 'Payment').map((f) => f.get('Amount'))).toEqual(['10.630', '10.630']);
  });

  it('stays unknown, never failed, when no look-up gets an answer', async () => {
    const gateway = await forgetfulGateway();
    const client = new GatewayClient({ baseUrl: gateway.baseUrl, credentials: { agentId: '1', wirePassword: 'pw' }, timeoutMs: 2000, dateFormat: 'local' });
    const input = { service: '201', account: 'a', amount: '1', currency: 'KZT', transactionId: '99' };
    const settled = await payAndSettle(client, input, { attempts: 0, delayMs: 10, codes: { pending: new Set(), notFound: new Set(['25']), failed: new Set() } });
    await client.close();
    expect(settled.view.state).toBe('unknown');
    expect(settled.view.message).toContain('connection was closed');
  });
});
