import { Agent, type Dispatcher, EnvHttpProxyAgent, Pool, ProxyAgent } from 'undici';
import { Deadline } from './deadline.js';
import { exchangeFailureOf } from './exchange-failure.js';
import {
  formHeaders,
  type HttpAnswer,
  type PostOptions,
  type ProxyRoute,
  Targets,
  type Transport,
  type TransportOptions,
} from './http.js';
import { BodyCollector, contentTypeOf } from './read-answer.js';

/**
 * undici's keep-alive pool, of at most `connections` sockets: its `Agent` for a batch on a
 * direct connection (it costs less per exchange than node:http, see docs/performance.md), its
 * `ProxyAgent` (--proxy) or `EnvHttpProxyAgent` (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) for every
 * proxy. undici is loaded only here, so only for a batch or a proxy.
 *
 * Certificates are always verified, the proxy's and the gateway's alike: `rejectUnauthorized`
 * is set here so that not even NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment can turn
 * verification off. A CA file replaces the built-in CAs for the gateway, as curl's --cacert does.
 */
export function undiciTransport(options: Omit<TransportOptions, 'proxy'>, route: ProxyRoute): Transport {
  const tls = {
    timeout: options.timeoutMs,
    rejectUnauthorized: true,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  };
  // No allowH2: every connection speaks HTTP/1.1, as node:http does for a single command.
  const pool = {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? null,
  };
  if (route.kind === 'direct') return new UndiciTransport(new Agent({ ...pool, connect: tls }));
  const proxied = {
    ...pool,
    // Every pool the agent makes gets these: the one it keeps to the proxy for an http://
    // gateway is otherwise made with the connector alone, without a limit on connections.
    factory: (origin: string | URL, made: object) => new Pool(origin, { ...pool, ...(made as Pool.Options) }),
    connect: tls,
    requestTls: tls,
    proxyTls: { timeout: options.timeoutMs, rejectUnauthorized: true },
    // An http:// gateway is asked for with an absolute URI, as curl does, since many proxies
    // allow CONNECT to port 443 only; an https:// one through a CONNECT tunnel.
    proxyTunnel: false,
  };
  if (route.kind === 'explicit') return new UndiciTransport(new ProxyAgent({ ...proxied, uri: route.url }));
  // Every value is passed, even empty, so undici never reads process.env on its own.
  return new UndiciTransport(
    new EnvHttpProxyAgent({
      ...proxied,
      httpProxy: route.httpProxy,
      httpsProxy: route.httpsProxy,
      noProxy: route.noProxy,
    }),
  );
}

class UndiciTransport implements Transport {
  private readonly dispatcher: Dispatcher;
  private readonly targets = new Targets();

  constructor(dispatcher: Dispatcher) {
    this.dispatcher = dispatcher;
  }

  post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const answer = new AnswerHandler(options, resolve, reject);
      // Stopped before it began (Ctrl+C already pressed): nothing is dispatched.
      if (answer.settled) return;
      try {
        const { origin, path } = this.targets.of(url);
        this.dispatcher.dispatch(
          {
            origin,
            path,
            method: 'POST',
            body: formBody,
            headers: formHeaders,
            headersTimeout: options.timeoutMs,
            bodyTimeout: options.timeoutMs,
          },
          answer,
        );
      } catch (error) {
        // A URL that does not parse, a dispatcher already closed: sorted like any other failure.
        answer.onResponseError(undefined, error as Error);
      }
    });
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  destroy(): Promise<void> {
    return this.dispatcher.destroy();
  }
}

/**
 * One exchange's answer, as undici's dispatch() hands it over: its status and Content-Type,
 * its body's chunks up to the size limit, then the decoded text; or the failure, sorted as
 * every transport sorts it (exchange-failure.ts). dispatch() rather than request(): request()
 * makes a Readable stream of every body, and a batch of thousands of small answers spent more
 * on those streams than on reading the answers (docs/performance.md).
 */
class AnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  /** Made again when the answer's head arrives; its chunks are a failure's sample. */
  private body: BodyCollector;
  private done = false;
  private readonly deadline: Deadline;

  constructor(
    private readonly options: PostOptions,
    private readonly resolve: (answer: HttpAnswer) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.body = new BodyCollector({ statusCode: 0, contentType: undefined }, options.maxBodyBytes, []);
    this.deadline = new Deadline(options.timeoutMs, options.signal);
    if (this.deadline.aborted) this.settle(this.deadline.reason);
    else this.deadline.once('abort', () => this.stop(this.deadline.reason));
  }

  /** Answered, failed or stopped: nothing more comes of it. */
  get settled(): boolean {
    return this.done;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Stopped while it waited for a connection: it never leaves.
    if (this.done) controller.abort(new DOMException('This operation was aborted', 'AbortError'));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    // An informational answer (1xx) comes before the one that counts.
    if (statusCode < 200) return;
    this.body = new BodyCollector(
      { statusCode, contentType: contentTypeOf(headers['content-type']) },
      this.options.maxBodyBytes,
      [],
    );
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.done) return;
    const tooLarge = this.body.add(chunk);
    if (tooLarge === undefined) return;
    this.settle(tooLarge);
    controller.abort(tooLarge);
  }

  onResponseEnd(): void {
    const { bytes, text } = this.body.answer();
    const { statusCode, contentType } = this.body.head;
    this.settle(undefined, { statusCode, body: text, bytes, contentType });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.settle(error);
  }

  /** The deadline ran out, or the run stopped: the exchange ends now, wherever it is. */
  private stop(reason: unknown): void {
    if (this.controller === undefined) this.settle(reason);
    else this.controller.abort(reason as Error);
  }

  private settle(error: unknown, answer?: HttpAnswer): void {
    if (this.done) return;
    this.done = true;
    this.deadline.clear();
    if (answer !== undefined) this.resolve(answer);
    // undici tells a refused connection or tunnel only by its error codes and messages.
    else
      this.reject(
        exchangeFailureOf(error, {
          timeoutMs: this.options.timeoutMs,
          chunks: this.body.chunks,
          contentType: this.body.head.contentType,
        }),
      );
  }
}
