import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { Agent as UndiciAgent, Dispatcher, EnvHttpProxyAgent as UndiciEnvHttpProxyAgent, ProxyAgent as UndiciProxyAgent } from 'undici';
import {
  contentTypeOf,
  Deadline,
  exchangeFailureOf,
  formHeaders,
  readLimited,
  Targets,
  type HttpAnswer,
  type PostOptions,
  type Transport,
  type TransportOptions,
} from './http.js';

/*
 * undici's Agent and its request method, loaded without the rest of the package: `import
 * 'undici'` also loads fetch, WebSocket, the caches, cookies and the mocks, several times the
 * load of what a form POST needs. These are the very modules undici's index exports as `Agent`
 * and installs as `Dispatcher.prototype.request` (test/gateway/undici-parts.test.ts checks
 * that they are).
 */
const requireUndici = createRequire(import.meta.url);
export const Agent = requireUndici('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
export const dispatcherRequest = requireUndici('undici/lib/api/api-request.js') as (
  this: Dispatcher,
  options: Dispatcher.RequestOptions,
) => Promise<Dispatcher.ResponseData>;

/**
 * The proxy agents, only when a proxy is configured: undici's whole package is loaded then,
 * since a ProxyAgent opens its tunnel with `Dispatcher.prototype.connect`, which the package's
 * index installs. Its Agent is the same module as the one above (one module cache).
 */
function proxyAgents(): { ProxyAgent: typeof UndiciProxyAgent; EnvHttpProxyAgent: typeof UndiciEnvHttpProxyAgent } {
  return requireUndici('undici') as typeof import('undici');
}

/*
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 optimises a hot wasm
 * function in the background, and a process cannot exit before such a job is done: for a
 * command that reads a handful of answers that is ~80 ms of CPU and most of its wall time,
 * spent after its work is finished. The baseline (Liftoff) code parses an answer in
 * microseconds, so the optimising tier is left off. It concerns WebAssembly only, of which
 * agentpay has no other. The flag is set as late as it can be, when the first dispatcher is
 * made: a changed V8 flag voids the code cache of Node's own modules, so any loaded after it
 * are compiled afresh.
 */
let wasmTierSet = false;
function keepWasmParserUnoptimised(): void {
  if (wasmTierSet) return;
  wasmTierSet = true;
  setFlagsFromString('--liftoff-only');
}

/**
 * undici's keep-alive pool: for batches on a direct connection (it loads in ~25 ms, then
 * costs tens of microseconds less per exchange than node:http), and for every proxy (its
 * ProxyAgent and EnvHttpProxyAgent, NO_PROXY included). Certificates are always verified:
 * `rejectUnauthorized` is set here so that not even NODE_TLS_REJECT_UNAUTHORIZED=0 in the
 * environment can turn verification off.
 */
export function undiciTransport(options: TransportOptions): Transport {
  keepWasmParserUnoptimised();
  const tls = { timeout: options.timeoutMs, rejectUnauthorized: true, ...(options.ca === undefined ? {} : { ca: options.ca }) };
  const common = {
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    keepAliveTimeout: 10_000,
    connections: options.connections ?? null,
  };
  // Through a proxy: the gateway's TLS (requestTls) is verified as a direct one would be; an
  // http:// gateway is asked for with an absolute URI, as curl does, since many proxies
  // allow CONNECT to port 443 only.
  const proxied = { ...common, connect: tls, requestTls: tls, proxyTls: { timeout: options.timeoutMs, rejectUnauthorized: true }, proxyTunnel: false };
  const route = options.proxy ?? { kind: 'direct' };
  switch (route.kind) {
    case 'direct':
      return new UndiciTransport(new Agent({ ...common, connect: tls }));
    case 'explicit': {
      const { ProxyAgent } = proxyAgents();
      return new UndiciTransport(new ProxyAgent({ ...proxied, uri: route.url }));
    }
    case 'env': {
      const { EnvHttpProxyAgent } = proxyAgents();
      // Every value is passed, even empty, so undici never reads process.env on its own.
      return new UndiciTransport(new EnvHttpProxyAgent({ ...proxied, httpProxy: route.httpProxy, httpsProxy: route.httpsProxy, noProxy: route.noProxy }));
    }
  }
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
      const response = await dispatcherRequest.call(this.dispatcher, {
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
      // undici tells a refused connection or tunnel only by its error codes.
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
