import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/client.js';
import { payAndSettle } from '../../src/gateway/settle.js';
import { inRun } from '../helpers/in-run.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';

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
      response.end(
        `{"TransactinID":${id},"RequestID":9007199254740995,"ResponseType":"${type}","ResponseStatus":${status},"Message":"m"}`,
      );
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
    expect(gateway.requests.filter((f) => f.get('RequestType') === 'Payment').map((f) => f.get('Amount'))).toEqual([
      '10.630',
      '10.630',
    ]);
  });

  it('stays unknown, never failed, when no look-up gets an answer', async () => {
    const gateway = await forgetfulGateway();
    const client = new GatewayClient({
      baseUrl: gateway.baseUrl,
      credentials: { agentId: '1', wirePassword: 'pw' },
      timeoutMs: 2000,
      dateFormat: 'local',
    });
    const input = { service: '201', account: 'a', amount: '1', currency: 'KZT', transactionId: '99' };
    const settled = await payAndSettle(client, input, {
      attempts: 0,
      delayMs: 10,
      codes: { pending: new Set(), notFound: new Set(['25']), failed: new Set() },
    });
    await client.close();
    expect(settled.view.state).toBe('unknown');
    expect(settled.view.message).toContain('connection was closed');
  });

  it('a Payment Ctrl+C cut short says so, in either language, and nothing about settling', async () => {
    const held: URLSearchParams[] = [];
    const listener = await listenOnLoopback(createServer((request) => onForm(request, (form) => held.push(form))));
    closers.push(listener.close);
    const input = { service: '201', account: 'a', amount: '1', currency: 'KZT', transactionId: '77' };
    const codes = { pending: new Set<string>(), notFound: new Set(['25']), failed: new Set<string>() };
    for (const [language, said] of [
      ['en', 'interrupted before the answer arrived'],
      ['ru', 'прервано до прихода ответа'],
    ] as const) {
      await inRun(language, async () => {
        const client = new GatewayClient({
          baseUrl: `http://127.0.0.1:${listener.port}`,
          credentials: { agentId: '1', wirePassword: 'pw' },
          timeoutMs: 5000,
          dateFormat: 'local',
        });
        const stop = new AbortController();
        const settling = payAndSettle(client, input, { attempts: 3, delayMs: 10, codes, signal: stop.signal });
        const before = held.length;
        while (held.length === before) await new Promise((resolve) => setTimeout(resolve, 10));
        stop.abort();
        const settled = await settling.finally(() => client.close());
        expect(settled.view).toMatchObject({ state: 'unknown', message: said });
      });
    }
  });
});

type Reply = 'drop' | { status: number; message?: string; close?: boolean };

/** A gateway whose answers are a script: the reply for the n-th request of each RequestType. */
async function scriptedGateway(script: {
  Payment: Reply[];
  Status: Reply[];
}): Promise<{ baseUrl: string; requests: URLSearchParams[] }> {
  const requests: URLSearchParams[] = [];
  const listener = await listenOnLoopback(
    createServer((request, response) => {
      onForm(request, (form) => {
        requests.push(form);
        const type = form.get('RequestType') as 'Payment' | 'Status';
        const nth = requests.filter((f) => f.get('RequestType') === type).length - 1;
        const replies = script[type];
        const reply = replies[Math.min(nth, replies.length - 1)]!;
        if (reply === 'drop') return void request.socket.destroy();
        const content = reply.status === 10 || reply.message === 'ours' ? ',"TransactionContent":{"Amount":1}' : '';
        const body = `{"TransactinID":${form.get('TransactionID')},"RequestID":0,"ResponseType":"${type}","ResponseStatus":${reply.status},"Message":"${reply.message ?? 'm'}"${content}}`;
        response.writeHead(200, {
          'content-type': 'application/json',
          ...(reply.close ? { connection: 'close' } : {}),
        });
        // After this answer nothing listens any more: the next connection is refused.
        if (reply.close) response.once('finish', () => void listener.close());
        response.end(body);
      });
    }),
  );
  closers.push(listener.close);
  return { baseUrl: `http://127.0.0.1:${listener.port}`, requests };
}

describe('payAndSettle: what the gateway said of the payment stands', () => {
  const codes = { pending: new Set(['11']), notFound: new Set(['25']), failed: new Set(['20']) };
  const input = { service: '201', account: 'a', amount: '1.00', currency: 'KZT', transactionId: '4242' };
  const settle = async (baseUrl: string, attempts: number) => {
    const client = new GatewayClient({
      baseUrl,
      credentials: { agentId: '1', wirePassword: 'pw' },
      timeoutMs: 2000,
      dateFormat: 'local',
    });
    try {
      return await payAndSettle(client, input, { attempts, delayMs: 5, codes });
    } finally {
      await client.close();
    }
  };
  const types = (requests: URLSearchParams[]) => requests.map((f) => f.get('RequestType'));

  it('an in-progress answer is not replaced by look-ups that fail, "not found", or a refused look-up', async () => {
    const gateway = await scriptedGateway({
      Payment: [{ status: 11 }],
      Status: ['drop', { status: 25 }, { status: 20, message: 'wrong password' }],
    });
    const settled = await settle(gateway.baseUrl, 3);
    expect(settled.view).toMatchObject({ state: 'pending', status: '11', type: 'Payment' });
    // The gateway answered the Payment: "not found" later is a lag, never a reason to send it again.
    expect(types(gateway.requests)).toEqual(['Payment', 'Status', 'Status', 'Status']);
  });

  it("with no code table, a Status that does not describe the payment never replaces the gateway's answer to it", async () => {
    const gateway = await scriptedGateway({
      Payment: [{ status: 22, message: 'account refused' }],
      Status: [{ status: 25, message: 'not found' }],
    });
    const client = new GatewayClient({
      baseUrl: gateway.baseUrl,
      credentials: { agentId: '1', wirePassword: 'pw' },
      timeoutMs: 2000,
      dateFormat: 'local',
    });
    const settled = await payAndSettle(client, input, {
      attempts: 2,
      delayMs: 5,
      codes: { pending: new Set(), notFound: new Set(), failed: new Set() },
    });
    await client.close();
    expect(settled.view).toMatchObject({ state: 'unknown', status: '22', message: 'account refused' });
  });

  it('a refused look-up after a lost answer leaves it unknown, never failed', async () => {
    const gateway = await scriptedGateway({ Payment: ['drop'], Status: [{ status: 20, message: 'wrong password' }] });
    const settled = await settle(gateway.baseUrl, 2);
    expect(settled.view).toMatchObject({ state: 'unknown', status: '20' });
  });

  it('a failed code about the transaction closes it', async () => {
    const gateway = await scriptedGateway({ Payment: ['drop'], Status: [{ status: 20, message: 'ours' }] });
    const settled = await settle(gateway.baseUrl, 2);
    expect(settled.view).toMatchObject({ state: 'failed', status: '20' });
  });

  it('sends the same Payment again once, however often Status says "not found"', async () => {
    const gateway = await scriptedGateway({ Payment: ['drop'], Status: [{ status: 25 }] });
    const settled = await settle(gateway.baseUrl, 4);
    expect(settled.view.state).toBe('unknown');
    expect(types(gateway.requests)).toEqual(['Payment', 'Status', 'Payment', 'Status', 'Status', 'Status']);
    expect(new Set(gateway.requests.map((f) => f.get('TransactionID')))).toEqual(new Set(['4242']));
  });

  it('a re-send that cannot connect does not say "no payment was sent" of the first one', async () => {
    const gateway = await scriptedGateway({ Payment: ['drop'], Status: [{ status: 25, close: true }] });
    const settled = await settle(gateway.baseUrl, 1);
    expect(settled.view.state).toBe('unknown');
    expect(settled.view.message).toMatch(
      /^the same Payment could not be sent again \(.*\); the first one's outcome is still unknown$/,
    );
    expect(types(gateway.requests)).toEqual(['Payment', 'Status']);
  });
});
