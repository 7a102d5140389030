import * as http from 'node:http';
import type * as Https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Deadline, removeFrom } from './deadline.js';
import { ExchangeFailure, exchangeFailureOf, ProxyRefusalError } from './exchange-failure.js';
import {
  formHeaders,
  type HttpAnswer,
  type PostOptions,
  type ProxyRoute,
  Targets,
  type Transport,
  type TransportOptions,
} from './http.js';
import { readLimited } from './read-answer.js';

/** Idle pooled connections are closed after this: a payment after a long prompt (`buy`) opens a
 * fresh one rather than writing into one a NAT may have dropped. A request has its own deadline. */
const idleSocketMs = 10_000;

/** Connected, and for TLS with its certificate verified: a request written now may arrive. */
function isEstablished(socket: Socket): boolean {
  if ((socket as TLSSocket).encrypted) return (socket as TLSSocket).authorized === true;
  return !socket.connecting && !socket.pending;
}

/** Node's own proxy support (http.Agent proxyEnv): HTTP_PROXY for http:// gateways, asked with an
 * absolute URI; HTTPS_PROXY for https:// ones, through a CONNECT tunnel. Always an object, so Node
 * never reads process.env for it (NODE_USE_ENV_PROXY): the settings decided the route. */
export function proxyEnvOf(route: ProxyRoute): Record<string, string> {
  if (route.kind === 'explicit') return { HTTP_PROXY: route.url, HTTPS_PROXY: route.url };
  if (route.kind === 'direct') return {};
  const noProxy = route.noProxy
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return {
    HTTP_PROXY: route.httpProxy,
    HTTPS_PROXY: route.httpsProxy || route.httpProxy,
    // As curl reads it, `example.com` covers its subdomains too: Node's list says that as `.example.com`.
    NO_PROXY: noProxy
      .flatMap((entry) => (/^[\w-]*[a-z][\w.-]*$/i.test(entry) ? [entry, `.${entry}`] : [entry]))
      .join(','),
  };
}

/** Every exchange, one or a batch, direct or through a proxy, on node:http and node:https (loaded
 * for an https gateway only): one keep-alive agent per scheme, at most `connections` sockets.
 * Whether a request was sent is told by its socket: exchange-failure.ts. */
export class HttpTransport implements Transport {
  private readonly options: TransportOptions;
  private httpAgent: http.Agent | undefined;
  private httpsAgent: Https.Agent | undefined;
  /** The requests in flight (for destroy); arrays and counts, not Sets: deadline.ts says why. */
  private readonly inFlight: http.ClientRequest[] = [];
  private unsettled = 0;
  /** Settles when the last exchange in flight does (for close). */
  private allSettled: Promise<void> | undefined;
  private settleAll: (() => void) | undefined;
  private readonly targets = new Targets();

  constructor(options: TransportOptions) {
    this.options = options;
  }

  post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
    const exchange = this.exchange(url, formBody, options);
    this.unsettled++;
    const settled = () => {
      if (--this.unsettled > 0) return;
      this.settleAll?.();
      this.allSettled = this.settleAll = undefined;
    };
    exchange.then(settled, settled);
    return exchange;
  }

  async close(): Promise<void> {
    if (this.unsettled > 0) {
      this.allSettled ??= new Promise((resolve) => (this.settleAll = resolve));
      await this.allSettled;
    }
    this.httpAgent?.destroy();
    this.httpsAgent?.destroy();
  }

  async destroy(): Promise<void> {
    for (const request of [...this.inFlight])
      request.destroy(new DOMException('This operation was aborted', 'AbortError'));
    await this.close();
  }

  private exchange(url: string, formBody: string, { timeoutMs, maxBodyBytes, signal }: PostOptions) {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const target = URL.canParse(url) ? this.targets.of(url) : undefined;
      if (target?.protocol !== 'http:' && target?.protocol !== 'https:') {
        const message = `cannot send to ${target ? `a ${target.protocol} URL` : url}: the gateway is reached over http or https`;
        throw new ExchangeFailure('notSent', { kind: 'other', message });
      }
      const secure = target.protocol === 'https:';
      const deadline = new Deadline(timeoutMs, signal);
      // Stopped before it began (Ctrl+C already pressed): no connection is even opened.
      if (deadline.aborted) {
        deadline.clear();
        return reject(exchangeFailureOf(deadline.reason, { timeoutMs, connected: false, chunks: [] }));
      }
      const chunks: Buffer[] = [];
      let contentType: string | undefined;
      let connected = false;
      let done = false;
      const request = (secure ? this.https() : http).request({
        agent: secure ? this.agentForHttps() : this.agentForHttp(),
        method: 'POST',
        hostname: target.hostname,
        port: target.port,
        path: target.path,
        headers: { ...formHeaders, 'content-length': String(Buffer.byteLength(formBody)) },
      });
      this.inFlight.push(request);
      const finish = (error: unknown, answer?: HttpAnswer) => {
        if (done) return;
        done = true;
        deadline.clear();
        removeFrom(this.inFlight, request);
        if (answer) return resolve(answer);
        request.destroy();
        reject(exchangeFailureOf(error, { timeoutMs, connected, chunks, contentType }));
      };
      request.on('socket', (socket: Socket) => {
        // The socket's own state, not request.reusedSocket: a pooled socket handed on to a
        // queued request is not marked reused. Only a new one is waited for.
        if (isEstablished(socket)) connected = true;
        else socket.once((socket as TLSSocket).encrypted ? 'secureConnect' : 'connect', () => (connected = true));
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        contentType = response.headers['content-type'];
        // An http:// gateway is asked for through its proxy with an absolute URI: a 407 is the
        // proxy's, and it passed nothing on.
        if (statusCode === 407 && /^https?:/.test(request.path)) {
          connected = false;
          return finish(new ProxyRefusalError(statusCode));
        }
        readLimited(response, { statusCode, contentType }, maxBodyBytes, chunks).then(
          ({ bytes, text }) => finish(undefined, { statusCode, body: text, bytes, contentType }),
          (error: unknown) => finish(error),
        );
      });
      request.on('error', (error) => finish(error));
      deadline.once('abort', () => finish(deadline.reason));
      request.end(formBody);
    });
  }

  private https(): typeof Https {
    return process.getBuiltinModule('node:https');
  }

  private agentForHttp(): http.Agent {
    this.httpAgent ??= new http.Agent({
      keepAlive: true,
      maxSockets: this.options.connections ?? Infinity,
      timeout: idleSocketMs,
      proxyEnv: proxyEnvOf(this.options.proxy ?? { kind: 'direct' }),
    });
    return this.httpAgent;
  }

  /** Certificates are always verified: `rejectUnauthorized` is set here so that not even
   * NODE_TLS_REJECT_UNAUTHORIZED=0 can turn it off. A CA file replaces the built-in CAs, as curl's --cacert. */
  private agentForHttps(): Https.Agent {
    this.httpsAgent ??= new (this.https().Agent)({
      keepAlive: true,
      maxSockets: this.options.connections ?? Infinity,
      timeout: idleSocketMs,
      rejectUnauthorized: true,
      proxyEnv: proxyEnvOf(this.options.proxy ?? { kind: 'direct' }),
      ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
    });
    return this.httpsAgent;
  }
}
