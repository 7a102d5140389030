import { describe, expect, it } from 'vitest';
import { NodeTransport } from '../../src/gateway/node-transport.js';
import { openTransport, undiciBreakEven } from '../../src/gateway/open-transport.js';

describe('the transport is chosen by route and work', () => {
  const cases = [
    { name: 'one exchange, direct', options: {}, node: true },
    { name: 'a few hundred, direct', options: { expectedExchanges: undiciBreakEven - 1 }, node: true },
    { name: 'a batch, direct', options: { expectedExchanges: undiciBreakEven }, node: false },
    { name: 'a stream of ids, direct', options: { expectedExchanges: Infinity }, node: false },
    { name: 'one exchange through --proxy', options: { proxy: { kind: 'explicit' as const, url: 'http://127.0.0.1:9' } }, node: false },
    { name: 'one exchange through HTTP_PROXY', options: { proxy: { kind: 'env' as const, httpProxy: 'http://127.0.0.1:9', httpsProxy: '', noProxy: '' } }, node: false },
  ];
  it.each(cases)('$name: node:http is $node', async ({ options, node }) => {
    const transport = await openTransport({ timeoutMs: 1000, ...options });
    try {
      expect(transport instanceof NodeTransport).toBe(node);
    } finally {
      await transport.destroy();
    }
  });
});
