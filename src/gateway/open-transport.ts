import { DirectTransport } from './direct-transport.js';
import type { Transport, TransportOptions } from './http.js';

/**
 * The transport for a route: node:http and node:https for a direct connection, one exchange or
 * a batch alike; undici's proxy agents for a proxy, loaded only then.
 */
export async function openTransport({ proxy, ...options }: TransportOptions): Promise<Transport> {
  if (proxy === undefined || proxy.kind === 'direct') return new DirectTransport(options);
  const { proxyTransport } = await import('./proxy-transport.js');
  return proxyTransport(options, proxy);
}
