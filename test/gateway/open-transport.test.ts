import { describe, expect, it } from 'vitest';
import { DirectTransport } from '../../src/gateway/direct-transport.js';
import { openTransport } from '../../src/gateway/open-transport.js';

describe('the transport is chosen by route and work', () => {
  const cases = [
    { name: 'direct', options: {}, nodeHttp: true },
    { name: 'direct, a batch', options: { batch: true, connections: 8 }, nodeHttp: false },
    {
      name: 'through --proxy',
      options: { proxy: { kind: 'explicit' as const, url: 'http://127.0.0.1:9' } },
      nodeHttp: false,
    },
    {
      name: 'through HTTP_PROXY',
      options: { proxy: { kind: 'env' as const, httpProxy: 'http://127.0.0.1:9', httpsProxy: '', noProxy: '' } },
      nodeHttp: false,
    },
  ];
  it.each(cases)('$name: node:http is $nodeHttp', async ({ options, nodeHttp }) => {
    const transport = await openTransport({ timeoutMs: 1000, ...options });
    try {
      expect(transport instanceof DirectTransport).toBe(nodeHttp);
    } finally {
      await transport.destroy();
    }
  });
});
