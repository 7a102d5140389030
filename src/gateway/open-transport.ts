import { DirectTransport } from './direct-transport.js';
import type { Transport, TransportOptions } from './http.js';

/**
 * One transport per kind of route. check, pay and status on a direct connection: node:http and
 * node:https, already in Node; undici made them slower at a real gateway's latency, all of it
 * the cost of loading undici (the bench's 50 ms rows, docs/performance.md). A batch or a bulk
 * run: undici's pool, which costs less per exchange and wins that back over many. Every proxy:
 * undici's proxy agents.
 */
export async function openTransport({
  proxy = { kind: 'direct' },
  batch = false,
  ...options
}: TransportOptions & { batch?: boolean | undefined }): Promise<Transport> {
  if (proxy.kind === 'direct' && !batch) return new DirectTransport(options);
  const { undiciTransport } = await import('./undici-transport.js');
  return undiciTransport(options, proxy);
}
