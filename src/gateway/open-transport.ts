import type { Transport, TransportOptions } from './http.js';
import { NodeTransport } from './node-transport.js';

/**
 * One keep-alive pool for the whole run, so a batch reuses its connections; certificates are
 * always verified. Direct connections use node:http, which Node has already half loaded;
 * undici, with its HTTP/2, TLS and WebAssembly parser, costs a single Status call more than
 * the call itself, so it is loaded only when a proxy is set (README "Performance").
 */
export async function openTransport(options: TransportOptions): Promise<Transport> {
  const route = options.proxy ?? { kind: 'direct' };
  if (route.kind === 'direct') return new NodeTransport(options);
  const { UndiciProxyTransport } = await import('./undici-transport.js');
  return new UndiciProxyTransport({ ...options, proxy: route });
}
