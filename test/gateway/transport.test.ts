import { getEventListeners } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ExchangeFailure } from '../../src/gateway/exchange-failure.js';
import type { PostOptions } from '../../src/gateway/http.js';
import { HttpTransport } from '../../src/gateway/transport.js';
import { listenOnLoopback, onForm } from '../helpers/loopback.js';
import { selfSignedCertificate } from '../helpers/tls.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** An HTTP(S) server on loopback that counts connections and how many are open at once. */
async function countingServer(
  handle: (form: URLSearchParams, response: ServerResponse, request: IncomingMessage) => void,
  tls?: { key: string; cert: string },
) {
  const handler = (request: IncomingMessage, response: ServerResponse) =>
    onForm(request, (form) => handle(form, response, request));
  const server: Server = tls ? createHttpsServer(tls, handler) : createHttpServer(handler);
  const stats = { connections: 0, open: 0, mostOpen: 0 };
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    stats.connections++;
    stats.mostOpen = Math.max(stats.mostOpen, ++stats.open);
    socket.on('close', () => stats.open--);
  });
  const listener = await listenOnLoopback(server);
  cleanups.push(listener.close);
  return { server, stats, url: `${tls ? 'https' : 'http'}://127.0.0.1:${listener.port}/home/index` };
}

/** A TCP server that accepts connections and never says a word (nor completes a TLS handshake). */
async function silentTcpServer() {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { port, sockets };
}

function transport(options: ConstructorParameters<typeof HttpTransport>[0] = { timeoutMs: 5000 }): HttpTransport {
  const made = new HttpTransport(options);
  cleanups.push(() => made.destroy());
  return made;
}

const post: PostOptions = { timeoutMs: 5000, maxBodyBytes: 1024 * 1024 };
const echo = (form: URLSearchParams, response: ServerResponse) => response.end(`{"n":${form.get('n')}}`);

/** Waits (at most 5 s) until `condition` holds: for what the server saw, not for a guessed time. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('the condition did not hold within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function failureOf(promise: Promise<unknown>): Promise<ExchangeFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExchangeFailure);
  return error as ExchangeFailure;
}

describe('the transport (node:http), direct', () => {
  it('sends the form as it is and reads the answer', async () => {
    let received = '';
    const { url } = await countingServer((form, response, request) => {
      received = `${request.method} ${request.url} ${request.headers['content-type']} ${form.toString()}`;
      response.writeHead(201).end('\u{feff}{"ok":true}');
    });
    const answer = await transport().post(url, 'Amount=10.630&TransactionID=9007199254740993', post);
    expect(answer).toEqual({
      statusCode: 201,
      body: '{"ok":true}',
      bytes: Buffer.from('\u{feff}{"ok":true}'),
      contentType: undefined,
    });
    expect(received).toBe(
      'POST /home/index application/x-www-form-urlencoded Amount=10.630&TransactionID=9007199254740993',
    );
  });

  it('keeps one connection alive for requests one after another', async () => {
    const { url, stats } = await countingServer(echo);
    const client = transport();
    for (let n = 0; n < 10; n++) expect((await client.post(url, `n=${n}`, post)).body).toBe(`{"n":${n}}`);
    expect(stats.connections).toBe(1);
  });

  it('opens at most `connections` sockets, however many requests are waiting', async () => {
    const { url, stats } = await countingServer((form, response) => setTimeout(() => echo(form, response), 20));
    const client = transport({ timeoutMs: 5000, connections: 3 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => client.post(url, `n=${n}`, post)));
    expect(answers.map((answer) => answer.body)).toEqual(Array.from({ length: 12 }, (_, n) => `{"n":${n}}`));
    expect(stats.mostOpen).toBe(3);
    expect(stats.connections).toBe(3);
  });

  it('opens a new connection when the server closed the pooled one, and the request goes through', async () => {
    const { url, stats, server } = await countingServer(echo);
    const client = transport();
    await client.post(url, 'n=1', post);
    // The socket is in the agent's pool (the server's keep-alive is the default 5 s); the
    // server closes it while it is idle.
    expect(stats.open).toBe(1);
    server.closeIdleConnections();
    await until(() => stats.open === 0);
    expect((await client.post(url, 'n=2', post)).body).toBe('{"n":2}');
    expect(stats.connections).toBe(2);
  });

  it('a queued request handed a pooled connection and then left unanswered: maybe sent, never "not sent"', async () => {
    const received: string[] = [];
    const { url } = await countingServer((form, response) => {
      received.push(form.toString());
      if (form.get('n') === '1') echo(form, response); // the second is never answered
    });
    const client = transport({ timeoutMs: 5000, connections: 1 });
    const [first, second] = await Promise.allSettled([
      client.post(url, 'n=1', post),
      client.post(url, 'n=2', { ...post, timeoutMs: 300 }),
    ]);
    expect(first).toMatchObject({ status: 'fulfilled', value: { body: '{"n":1}' } });
    expect(received).toEqual(['n=1', 'n=2']);
    expect(second.status).toBe('rejected');
    const failure = (second as PromiseRejectedResult).reason as ExchangeFailure;
    expect(failure).toBeInstanceOf(ExchangeFailure);
    expect(failure.kind).toBe('maybeSent');
    expect(failure.problem).toEqual({ kind: 'noAnswerWithin', ms: 300 });
  });

  it('a connection reused from the pool and cut after the request: maybe sent', async () => {
    const { url, stats } = await countingServer((form, response, request) => {
      if (form.get('n') === '1') echo(form, response);
      else request.socket.destroy();
    });
    const client = transport();
    await client.post(url, 'n=1', post);
    const failure = await failureOf(client.post(url, 'n=2', post));
    expect(stats.connections).toBe(1);
    expect(failure.kind).toBe('maybeSent');
    expect(failure.problem).toEqual({ kind: 'closed' });
  });

  it('a server that accepts and never answers: maybe sent, at the deadline', async () => {
    const { port, sockets } = await silentTcpServer();
    const failure = await failureOf(
      transport().post(`http://127.0.0.1:${port}/home/index`, 'a=1', { ...post, timeoutMs: 200 }),
    );
    expect(failure.kind).toBe('maybeSent');
    expect(failure.problem).toEqual({ kind: 'noAnswerWithin', ms: 200 });
    expect(sockets.size).toBe(1);
  });

  it('a TLS handshake that never completes: not sent, nothing was written', async () => {
    const { port, sockets } = await silentTcpServer();
    const failure = await failureOf(
      transport().post(`https://127.0.0.1:${port}/home/index`, 'a=1', { ...post, timeoutMs: 200 }),
    );
    expect(failure.kind).toBe('notSent');
    expect(failure.problem).toEqual({ kind: 'couldNotConnectWithin', ms: 200 });
    expect(sockets.size).toBe(1);
  });

  it('https with the CA given: verified and answered; without it: not sent', async () => {
    const certificate = await selfSignedCertificate();
    const { url } = await countingServer(echo, certificate);
    expect((await transport({ timeoutMs: 5000, ca: certificate.cert }).post(url, 'n=7', post)).body).toBe('{"n":7}');
    const refused = await failureOf(transport().post(url, 'n=8', post));
    expect(refused.kind).toBe('notSent');
    expect(refused.problem).toMatchObject({ kind: 'certificate', otherHost: false });
  });

  it('a connection cut in the middle of the body: maybe sent, with the first bytes kept', async () => {
    const { url } = await countingServer((_form, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"TransactinID":42,');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const failure = await failureOf(transport().post(url, 'a=1', post));
    expect(failure.kind).toBe('maybeSent');
    expect(failure.problem).toEqual({ kind: 'closed' });
    expect(failure.bodySample).toBe('{"TransactinID":42,');
  });

  it('a signal already aborted sends nothing, and opens no connection', async () => {
    const { url, stats } = await countingServer(echo);
    const failure = await failureOf(transport().post(url, 'a=1', { ...post, signal: AbortSignal.abort() }));
    expect(failure.kind).toBe('notSent');
    expect(failure.problem).toEqual({ kind: 'interrupted' });
    // A probe on a connection of its own: had the aborted request connected, its connection
    // would have been accepted before the probe's, so the probe's answer is the barrier.
    await transport().post(url, 'n=1', post);
    expect(stats.connections).toBe(1);
  });

  it('close() lets the exchange in flight finish; destroy() cuts it', async () => {
    const arrived: string[] = [];
    const { url } = await countingServer((form, response) => {
      arrived.push(form.toString());
      setTimeout(() => echo(form, response), 100);
    });
    const closing = transport();
    const answered = closing.post(url, 'n=1', post);
    await until(() => arrived.length === 1);
    await closing.close();
    expect((await answered).body).toBe('{"n":1}');

    const destroying = transport();
    const cut = destroying.post(url, 'n=2', post);
    await until(() => arrived.length === 2);
    await destroying.destroy();
    const failure = await failureOf(cut);
    expect(failure.kind).toBe('maybeSent');
    expect(failure.problem).toEqual({ kind: 'interrupted' });
  });

  it('a stop signal ends every exchange in flight, through one listener however many there are', async () => {
    const arrived: string[] = [];
    const { url } = await countingServer((form) => arrived.push(form.toString()));
    const client = transport({ timeoutMs: 5000, connections: 4 });
    const stop = new AbortController();
    const exchanges = Array.from({ length: 4 }, (_, n) => client.post(url, `n=${n}`, { ...post, signal: stop.signal }));
    await until(() => arrived.length === 4);
    // A listener an exchange, each removed from the signal's list as it ended, made a batch's
    // memory grow with its length (deadline.ts).
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    for (const exchange of exchanges) {
      const failure = await failureOf(exchange);
      expect(failure.kind).toBe('maybeSent');
      expect(failure.problem).toEqual({ kind: 'interrupted' });
    }
  });

  it('close() called twice waits for every exchange in flight', async () => {
    const { url } = await countingServer((form, response) => setTimeout(() => echo(form, response), 50));
    const client = transport({ timeoutMs: 5000, connections: 2 });
    const answers = [1, 2, 3].map((n) => client.post(url, `n=${n}`, post));
    await Promise.all([client.close(), client.close()]);
    const settled = await Promise.allSettled(answers);
    expect(settled.map((each) => (each.status === 'fulfilled' ? each.value.body : 'failed'))).toEqual([
      '{"n":1}',
      '{"n":2}',
      '{"n":3}',
    ]);
  });

  it('refuses a URL that is not http or https, sending nothing', async () => {
    const failure = await failureOf(transport().post('ftp://127.0.0.1/home/index', 'a=1', post));
    expect(failure.kind).toBe('notSent');
  });
});
