import { createServer, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeFailure } from '../../src/gateway/exchange-failure.js';
import type { PostOptions } from '../../src/gateway/http.js';
import { proxyTransport } from '../../src/gateway/proxy-transport.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';

// The pool's side of the transport contract, through a proxy (the direct transport's is in
// direct-transport.test.ts; answers and failures over both routes in client-faults.test.ts).

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const post: PostOptions = { timeoutMs: 5000, maxBodyBytes: 1024 * 1024 };

/** A gateway on loopback that answers each form after `delayMs`, and a proxy in front of it. */
async function gatewayBehindProxy(delayMs = 0): Promise<{ url: string; proxy: ForwardProxy; arrived: string[] }> {
  const arrived: string[] = [];
  const server = createServer((request, response: ServerResponse) =>
    onForm(request, (form) => {
      arrived.push(form.toString());
      setTimeout(() => response.end(`{"n":${form.get('n')}}`), delayMs);
    }),
  );
  const listener = await listenOnLoopback(server);
  const proxy = await startForwardProxy();
  cleanups.push(listener.close, proxy.close);
  return { url: `http://127.0.0.1:${listener.port}/home/index`, proxy, arrived };
}

function transport(proxy: ForwardProxy, connections?: number) {
  const made = proxyTransport({ timeoutMs: 5000, connections }, { kind: 'explicit', url: proxy.url });
  cleanups.push(() => made.destroy());
  return made;
}

/** Waits (at most 5 s) until `condition` holds: for what the server saw, not for a guessed time. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('the condition did not hold within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('the proxy transport (undici)', () => {
  it('keeps one connection to the proxy alive for requests one after another', async () => {
    const { url, proxy } = await gatewayBehindProxy();
    const client = transport(proxy);
    for (let n = 0; n < 10; n++) expect((await client.post(url, `n=${n}`, post)).body).toBe(`{"n":${n}}`);
    expect(proxy.forwarded).toHaveLength(10);
    // undici may open a second one: the answer's body has ended before its pool marks the
    // first connection free again, and a pool without a limit does not wait.
    expect(proxy.connections.accepted).toBeLessThanOrEqual(2);
  });

  it('opens at most `connections` sockets to the proxy, however many requests are waiting', async () => {
    const { url, proxy } = await gatewayBehindProxy(20);
    const client = transport(proxy, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => client.post(url, `n=${n}`, post)));
    expect(answers.map((answer) => answer.body)).toEqual(Array.from({ length: 12 }, (_, n) => `{"n":${n}}`));
    expect(proxy.connections.mostOpen).toBe(3);
  });

  it('close() lets the exchange in flight finish; destroy() cuts it', async () => {
    const { url, proxy, arrived } = await gatewayBehindProxy(100);
    const closing = transport(proxy);
    const answered = closing.post(url, 'n=1', post);
    await until(() => arrived.length === 1);
    await closing.close();
    expect((await answered).body).toBe('{"n":1}');

    const destroying = transport(proxy);
    const cut = destroying.post(url, 'n=2', post);
    await until(() => arrived.length === 2);
    await destroying.destroy();
    const failure = await cut.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect((failure as ExchangeFailure).kind).toBe('maybeSent');
  });
});
