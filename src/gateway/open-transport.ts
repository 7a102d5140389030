import { DirectTransport } from './direct-transport.js';
import type { Transport, TransportOptions } from './http.js';

/**
 * The transport for a run: node:http and node:https for exchanges on a direct connection;
 * undici's pool for every proxy, and for a batch, where it costs less per exchange than
 * node:http but ~30 ms more to load (docs/performance.md). undici is loaded only then.
 */
export async function openTransport({ proxy = { kind: 'direct' }, batch = false, ...options }: TransportOptions & { batch?: boolean | undefined }): Promise<Transport> {
  if (proxy.kind === 'direct' && !batch) return new DirectTransport(options);
  const { undiciTransport } = await import('./undici-transport.js');
  return undiciTransport(options, proxy);
}
