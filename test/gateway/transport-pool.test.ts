import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeFailure } from '../../src/gateway/exchange-failure.js';
import type { PostOptions } from '../../src/gateway/http.js';
import { HttpTransport, proxyEnvOf } from '../../src/gateway/transport.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';

// The pool's side of the transport contract, direct and through a proxy (the rest of it in
// transport.test.ts; answers in client-answers.test.ts, failures in client-failures.test.ts).

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const post: PostOptions = { timeoutMs: 5000, maxBodyBytes: 1024 * 1024 };

interface Connections {
  accepted: number;
  open: number;
  mostOpen: number;
}

/** A gateway on loopback that answers each form after `delayMs`, counting the connections made to it. */
async function startGateway(delayMs: number) {
  const arrived: string[] = [];
  const connections: Connections = { accepted: 0, open: 0, mostOpen: 0 };
  const server = createServer((request, response: ServerResponse) =>
    onForm(request, (form) => {
      arrived.push(form.toString());
      setTimeout(() => response.end(`{"n":${form.get('n')}}`), delayMs);
    }),
  );
  server.on('connection', (socket: Socket) => {
    connections.accepted++;
    connections.mostOpen = Math.max(connections.mostOpen, ++connections.open);
    socket.on('close', () => connections.open--);
  });
  const listener = await listenOnLoopback(server);
  cleanups.push(listener.close);
  return { url: `http://127.0.0.1:${listener.port}/home/index`, arrived, connections };
}

/** The transport under test and the connections it makes: to the gateway, or to the proxy. */
const routes = [
  {
    name: 'direct',
    open: async (delayMs: number, connections?: number) => {
      const gateway = await startGateway(delayMs);
      return { ...gateway, transport: new HttpTransport({ timeoutMs: 5000, connections }) };
    },
  },
  {
    name: 'through a proxy',
    open: async (delayMs: number, connections?: number) => {
      const gateway = await startGateway(delayMs);
      const proxy = await startForwardProxy();
      cleanups.push(proxy.close);
      return {
        ...gateway,
        connections: proxy.connections,
        transport: new HttpTransport({ timeoutMs: 5000, connections, proxy: { kind: 'explicit', url: proxy.url } }),
      };
    },
  },
];

async function opened(route: (typeof routes)[number], delayMs = 0, connections?: number) {
  const made = await route.open(delayMs, connections);
  cleanups.push(() => made.transport.destroy());
  return made;
}

/** Waits (at most 5 s) until `condition` holds: for what the server saw, not for a guessed time. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('the condition did not hold within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(routes)('the transport, $name', (route) => {
  it('keeps its connection alive for requests one after another', async () => {
    const { url, connections, transport } = await opened(route);
    for (let n = 0; n < 10; n++) expect((await transport.post(url, `n=${n}`, post)).body).toBe(`{"n":${n}}`);
    expect(connections.accepted).toBe(1);
  });

  it('opens at most `connections` sockets, however many requests are waiting', async () => {
    const { url, connections, transport } = await opened(route, 20, 3);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => transport.post(url, `n=${n}`, post)));
    expect(answers.map((answer) => answer.body)).toEqual(Array.from({ length: 12 }, (_, n) => `{"n":${n}}`));
    expect(connections.mostOpen).toBe(3);
  });

  it('close() lets the exchange in flight finish; destroy() cuts it', async () => {
    const closing = await opened(route, 100);
    const answered = closing.transport.post(closing.url, 'n=1', post);
    await until(() => closing.arrived.length === 1);
    await closing.transport.close();
    expect((await answered).body).toBe('{"n":1}');

    const destroying = await opened(route, 100);
    const cut = destroying.transport.post(destroying.url, 'n=2', post);
    await until(() => destroying.arrived.length === 1);
    await destroying.transport.destroy();
    const failure = await cut.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect((failure as ExchangeFailure).kind).toBe('maybeSent');
  });

  it('an exchange stopped while the gateway holds it may have been sent; one stopped while it waited for a connection never reaches the gateway', async () => {
    const { url, arrived, transport } = await opened(route, 300, 1);
    const stop = new AbortController();
    const held = transport.post(url, 'n=1', { ...post, signal: stop.signal });
    const waiting = transport.post(url, 'n=2', { ...post, signal: stop.signal });
    await until(() => arrived.length === 1);
    stop.abort();
    const kinds = [];
    for (const stopped of await Promise.allSettled([held, waiting])) {
      const failure = stopped.status === 'rejected' ? (stopped.reason as unknown) : undefined;
      expect(failure).toBeInstanceOf(ExchangeFailure);
      expect((failure as ExchangeFailure).problem).toEqual({ kind: 'interrupted' });
      kinds.push((failure as ExchangeFailure).kind);
    }
    // Never 'notSent' for the one the gateway holds: that would let a payment be called failed.
    // The one that never had a connection of its own was not sent.
    expect(kinds).toEqual(['maybeSent', 'notSent']);
    // The gateway's answer to the first has come and gone; the second was never written.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(arrived).toEqual(['n=1']);
  });

  it('an exchange whose stop came before it began sends nothing', async () => {
    const { url, arrived, transport } = await opened(route);
    const failure = await transport.post(url, 'n=1', { ...post, signal: AbortSignal.abort() }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect((await transport.post(url, 'n=2', post)).body).toBe('{"n":2}');
    expect(arrived).toEqual(['n=2']);
  });

  it('a URL that does not parse is a failure like any other, not a stray TypeError', async () => {
    const { transport } = await opened(route);
    const failure = await transport.post('no url at all', 'n=1', post).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(failure).toBeInstanceOf(ExchangeFailure);
  });

  it('an answer over the size limit is refused, with its first bytes kept', async () => {
    const { url, transport } = await opened(route);
    const failure = await transport.post(url, 'n=123456789', { ...post, maxBodyBytes: 8 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(failure).toMatchObject({ name: 'BodyTooLargeError', maxBytes: 8, statusCode: 200 });
    expect((failure as { bodySample: string }).bodySample.startsWith('{"n":')).toBe(true);
  });
});

describe('the proxies of the environment, as Node is told them', () => {
  it('NO_PROXY as curl reads it: a plain name covers its subdomains; dots, ports, addresses and * kept as given', () => {
    const noProxy = ' corp.example, .lan,10.0.0.1,host:8080,*,';
    const route = { kind: 'env', httpProxy: 'http://proxy:3128', httpsProxy: '', noProxy } as const;
    expect(proxyEnvOf(route)).toEqual({
      HTTP_PROXY: 'http://proxy:3128',
      // HTTPS_PROXY unset: the http one serves https:// gateways too.
      HTTPS_PROXY: 'http://proxy:3128',
      NO_PROXY: 'corp.example,.corp.example,.lan,10.0.0.1,host:8080,*',
    });
  });
});
