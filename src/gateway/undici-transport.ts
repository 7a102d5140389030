// First: it sets the V8 flag undici must be compiled under.
import './wasm-tier.js';
import { Agent, type Dispatcher, EnvHttpProxyAgent, Pool, ProxyAgent } from 'undici';
import { Deadline } from './deadline.js';
import { exchangeFailureOf } from './exchange-failure.js';
import { formHeaders, type HttpAnswer, type PostOptions, type ProxyRoute, Targets, type Transport, type TransportOptions } from './http.js';
import { contentTypeOf, readLimited } from './read-answer.js';

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
  const tls = { timeout: options.timeoutMs, rejectUnauthorized: true, ...(options.ca === undefined ? {} : { ca: options.ca }) };
  const pool = { headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 10_000, connections: options.connections ?? null };
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
  return new UndiciTransport(new EnvHttpProxyAgent({ ...proxied, httpProxy: route.httpProxy, httpsProxy: route.httpsProxy, noProxy: route.noProxy }));
}

class UndiciTransport implements Transport {
  private readonly dispatcher: Dispatcher;
  private readonly targets = new Targets();

  constructor(dispatcher: Dispatcher) {
    this.dispatcher = dispatcher;
  }

  async post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
    const deadline = new Deadline(options.timeoutMs, options.signal);
    const chunks: Buffer[] = [];
    let contentType: string | undefined;
    try {
      const { origin, path } = this.targets.of(url);
      const response = await this.dispatcher.request({
        origin,
        path,
        method: 'POST',
        body: formBody,
        headers: formHeaders,
        signal: deadline,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      contentType = contentTypeOf(response.headers['content-type']);
      const body = await readLimited(response.body, { statusCode: response.statusCode, contentType }, options.maxBodyBytes, chunks);
      return { statusCode: response.statusCode, body };
    } catch (error) {
      // undici tells a refused connection or tunnel only by its error codes and messages.
      throw exchangeFailureOf(error, { timeoutMs: options.timeoutMs, chunks, contentType });
    } finally {
      deadline.clear();
    }
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  destroy(): Promise<void> {
    return this.dispatcher.destroy();
  }
}
