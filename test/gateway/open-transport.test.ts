import { describe, expect, it } from 'vitest';
import { DirectTransport } from '../../src/gateway/direct-transport.js';
import { openTransport } from '../../src/gateway/open-transport.js';

describe('the transport is chosen by route alone', () => {
  const cases = [
    { name: 'direct, however many exchanges', options: { connections: 8 }, direct: true },
    { name: 'through --proxy', options: { proxy: { kind: 'explicit' as const, url: 'http://127.0.0.1:9' } }, direct: false },
    { name: 'through HTTP_PROXY', options: { proxy: { kind: 'env' as const, httpProxy: 'http://127.0.0.1:9', httpsProxy: '', noProxy: '' } }, direct: false },
  ];
  it.each(cases)('$name: node:http is $direct', async ({ options, direct }) => {
    const transport = await openTransport({ timeoutMs: 1000, ...options });
    try {
      expect(transport instanceof DirectTransport).toBe(direct);
    } finally {
      await transport.destroy();
    }
  });
});
