import type { Transport, TransportOptions } from './http.js';
import { NodeTransport } from './node-transport.js';

/**
 * How many exchanges make undici worth loading on a direct connection: it costs ~25 ms to
 * load (node:http2, TLS, a WebAssembly parser), then tens of microseconds less per exchange
 * than node:http; measured on the bench, it pays for itself at about a thousand.
 */
export const undiciBreakEven = 1000;

/**
 * The transport for a run, chosen by its route and its work (docs/performance.md): a few
 * exchanges on a direct connection go through node:http, which costs nothing to load; a batch
 * through undici's Agent; every proxy through undici's proxy agents.
 */
export async function openTransport(options: TransportOptions & { expectedExchanges?: number | undefined }): Promise<Transport> {
  const direct = (options.proxy ?? { kind: 'direct' }).kind === 'direct';
  if (direct && (options.expectedExchanges ?? 1) < undiciBreakEven) return new NodeTransport(options);
  const { undiciTransport } = await import('./undici-transport.js');
  return undiciTransport(options);
}
