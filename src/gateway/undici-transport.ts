import { setFlagsFromString } from 'node:v8';
import { EnvHttpProxyAgent, ProxyAgent, type Dispatcher } from 'undici';
import {
  Deadline,
  decodeAnswer,
  exchangeFailureOf,
  formHeaders,
  readLimited,
  type HttpAnswer,
  type PostOptions,
  type ProxyRoute,
  type Transport,
  type TransportOptions,
} from './http.js';

/*
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly. V8 optimises a hot wasm
 * function in the background, and a process cannot exit before such a job is done: for a
 * command that reads a handful of answers that is ~80 ms of CPU and most of its wall time,
 * spent after its work is finished. The baseline (Liftoff) code parses an answer in
 * microseconds, so the optimising tier is left off. It concerns WebAssembly only, of which
 * agentpay has no other.
 */
let wasmTierSet = false;
function keepWasmParserUnoptimised(): void {
  if (wasmTierSet) return;
  wasmTierSet = true;
  setFlagsFromString('--liftoff-only');
}

/**
 * Requests through a proxy, with undici's proxy agents: one explicit proxy (--proxy), or the
 * proxies the environment names, NO_PROXY included. This module, and undici with it, is
 * loaded only when a proxy is set.
 */
export class UndiciProxyTransport implements Transport {
  private readonly dispatcher: Dispatcher;
  private lastTarget: { url: string; origin: string; path: string } | undefined;

  constructor(options: TransportOptions & { proxy: Exclude<ProxyRoute, { kind: 'direct' }> }) {
    keepWasmParserUnoptimised();
    // The gateway's TLS (requestTls) is verified as a direct one would be; an http:// gateway
    // is asked for with an absolute URI, as curl does, since many proxies allow CONNECT to
    // port 443 only.
    const tls = { timeout: options.timeoutMs, rejectUnauthorized: true, ...(options.ca === undefined ? {} : { ca: options.ca }) };
    const common = {
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 10_000,
      connections: options.connections ?? null,
      connect: tls,
      requestTls: tls,
      proxyTls: { timeout: options.timeoutMs, rejectUnauthorized: true },
      proxyTunnel: false,
    };
    const route = options.proxy;
    this.dispatcher =
      route.kind === 'explicit'
        ? new ProxyAgent({ ...common, uri: route.url })
        : // Every value is passed, even empty, so undici never reads process.env on its own.
          new EnvHttpProxyAgent({ ...common, httpProxy: route.httpProxy, httpsProxy: route.httpsProxy, noProxy: route.noProxy });
  }

  async post(url: string, formBody: string, options: PostOptions): Promise<HttpAnswer> {
    const deadline = new Deadline(options.timeoutMs, options.signal);
    const chunks: Buffer[] = [];
    try {
      const { origin, path } = this.targetOf(url);
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
      const body = await readLimited(response.body, response.statusCode, options.maxBodyBytes, chunks);
      return { statusCode: response.statusCode, body: decodeAnswer(body) };
    } catch (error) {
      // undici tells a refused connection or tunnel only by its error codes.
      throw exchangeFailureOf(error, { timeoutMs: options.timeoutMs, chunks });
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

  private targetOf(url: string): { origin: string; path: string } {
    if (this.lastTarget?.url !== url) {
      const parsed = new URL(url);
      this.lastTarget = { url, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    }
    return this.lastTarget;
  }
}
