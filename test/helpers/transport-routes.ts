import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { AgentpayError } from '../../src/errors.js';
import { GatewayClient, type GatewayClientOptions } from '../../src/gateway/client.js';
import type { Transport } from '../../src/gateway/http.js';
import { HttpTransport } from '../../src/gateway/transport.js';
import { closedPortUrl, type FakeGateway, type FakeHandler, startFakeGateway } from './fake-gateway.js';
import { type ForwardProxy, startForwardProxy } from './forward-proxy.js';

/** A way to the gateway: its transport, and a gateway URL whose first hop refuses the connection. */
export interface Route {
  transport(timeoutMs: number): Transport;
  refused(timeoutMs: number): Promise<{ baseUrl: string; transport: Transport }>;
}

/**
 * Every transport keeps one contract, so every case runs over each: the routes, fake gateways and
 * clients closed after each test, and the forward proxy the proxy routes go through (started
 * before the file's tests, closed after them). Called once, at the top of a test file.
 */
export function transportRoutes() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });

  let proxy: ForwardProxy;
  beforeAll(async () => {
    proxy = await startForwardProxy();
  });
  afterAll(() => proxy.close());

  async function gateway(handler: FakeHandler): Promise<FakeGateway> {
    const fake = await startFakeGateway(handler);
    cleanups.push(fake.close);
    return fake;
  }

  const routes: [string, Route][] = [
    [
      'a direct connection',
      {
        transport: (timeoutMs) => new HttpTransport({ timeoutMs }),
        refused: async (timeoutMs) => ({ baseUrl: await closedPortUrl(), transport: new HttpTransport({ timeoutMs }) }),
      },
    ],
    [
      'a proxy (--proxy)',
      {
        transport: (timeoutMs) => new HttpTransport({ timeoutMs, proxy: { kind: 'explicit', url: proxy.url } }),
        // The proxy itself refuses: the request never left this machine.
        refused: async (timeoutMs) => ({
          baseUrl: 'http://127.0.0.1:9',
          transport: new HttpTransport({ timeoutMs, proxy: { kind: 'explicit', url: await closedPortUrl() } }),
        }),
      },
    ],
    [
      'the proxies of the environment (HTTP_PROXY)',
      {
        transport: (timeoutMs) =>
          new HttpTransport({ timeoutMs, proxy: { kind: 'env', httpProxy: proxy.url, httpsProxy: '', noProxy: '' } }),
        refused: async (timeoutMs) => ({
          baseUrl: 'http://127.0.0.1:9',
          transport: new HttpTransport({
            timeoutMs,
            proxy: { kind: 'env', httpProxy: await closedPortUrl(), httpsProxy: '', noProxy: '' },
          }),
        }),
      },
    ],
  ];

  function makeClient(
    baseUrl: string,
    transport: Transport,
    options: Partial<GatewayClientOptions> = {},
  ): GatewayClient {
    const made = new GatewayClient({
      baseUrl,
      credentials: { agentId: '77', wirePassword: 'pw-of-the-routes' },
      timeoutMs: 5000,
      dateFormat: 'local',
      transport,
      ...options,
    });
    cleanups.push(() => transport.close());
    return made;
  }

  return { routes, gateway, makeClient, proxy: () => proxy };
}

export async function failure(promise: Promise<unknown>): Promise<AgentpayError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentpayError);
    return error as AgentpayError;
  }
  throw new Error('expected the call to fail');
}

export const payment = {
  service: '201',
  account: '7011234567',
  amount: '150.50',
  currency: 'KZT',
  transactionId: '4242',
};
export const content =
  '{"Service":"201","account":"7011234567","Amount":150.50,"Currency":"KZT","ExchangeRate":1,"ServiceCurrency":"KZT"}';
