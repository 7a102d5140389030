import * as http from 'node:http';
import type * as Https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Deadline, removeFrom } from './deadline.js';
import { ExchangeFailure, exchangeFailureOf } from './exchange-failure.js';
import {
  formHeaders,
  type HttpAnswer,
  type PostOptions,
  Targets,
  type Transport,
  type TransportOptions,
} from './http.js';
import { readLimited } from './read-answer.js';

/**
 * How long an idle pooled connection is kept (the agent closes it then; a request in flight
 * has its own deadline). A payment after a long prompt (`buy`) then opens a fresh connection
 * rather than writing into one a NAT or load balancer may have dropped without a word.
 */
const idleSocketMs = 10_000;

/** Connected, and for TLS with its certificate verified: a request written now may arrive. */
function isEstablished(socket: Socket, tls: boolean): boolean {
  return tls ? (socket as TLSSocket).authorized === true : !socket.connecting && !socket.pending;
}

/**
 * Direct connections, one exchange or a batch, on node:http and node:https: one keep-alive
 * agent per scheme, at most `connections` sockets open at once. node:https (and with it TLS)
 * is loaded only for an https gateway.
 *
 * Whether a request may have reached the gateway is told by its socket, not guessed from
 * error codes: until a new socket is connected (and, for https, its certificate verified)
 * nothing was written, so any failure then is `notSent`; from then on it is `maybeSent`.
 */
export class DirectTransport implements Transport {
  private readonly options: Omit<TransportOptions, 'proxy'>;
  private httpAgent: http.Agent | undefined;
  private httpsAgent: Https.Agent | undefined;
  /**
   * The requests in flight (for destroy), and a count of the exchanges not yet settled (for
   * close). An array and a count, not Sets: a Set that churns through thousands of requests
   * replaces its table again and again, and each discarded table still points to the next one
   * and to the requests it held; once one is promoted, the young collections keep every
   * request after it alive, and a batch's memory follows its length.
   */
  private readonly inFlight: http.ClientRequest[] = [];
  private unsettled = 0;
  /** Settles when the last exchange in flight does (for close). */
  private allSettled: Promise<void> | undefined;
  private settleAll: (() => void) | undefined;
  private readonly targets = new Targets();

  constructor(options: Omit<TransportOptions, 'proxy'>) {
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

  private exchange(
    url: string,
    formBody: string,
    { timeoutMs, maxBodyBytes, signal }: PostOptions,
  ): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const target = this.targets.of(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:') {
        throw new ExchangeFailure('notSent', {
          kind: 'other',
          message: `cannot send to a ${target.protocol} URL: the gateway is reached over http or https`,
        });
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
        if (isEstablished(socket, secure)) connected = true;
        else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
      });
      request.on('response', (response) => {
        const statusCode = response.statusCode ?? 0;
        contentType = response.headers['content-type'];
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
    });
    return this.httpAgent;
  }

  /**
   * Certificates are always verified: `rejectUnauthorized` is set here so that not even
   * NODE_TLS_REJECT_UNAUTHORIZED=0 in the environment can turn verification off. A CA file
   * replaces the built-in CAs, as curl's --cacert does.
   */
  private agentForHttps(): Https.Agent {
    this.httpsAgent ??= new (this.https().Agent)({
      keepAlive: true,
      maxSockets: this.options.connections ?? Infinity,
      timeout: idleSocketMs,
      rejectUnauthorized: true,
      ...(this.options.ca === undefined ? {} : { ca: this.options.ca }),
    });
    return this.httpsAgent;
  }
}
