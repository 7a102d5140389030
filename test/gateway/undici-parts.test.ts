import { describe, expect, it } from 'vitest';
import { Agent, dispatcherRequest } from '../../src/gateway/undici-transport.js';

describe("undici's parts, loaded without the rest of undici", () => {
  it('are the Agent and the request method undici itself exports', async () => {
    // If a new undici moves its files, this fails before any user pays for it.
    const undici = await import('undici');
    expect(Agent).toBe(undici.Agent);
    expect(dispatcherRequest).toBe(undici.Dispatcher.prototype.request);
  });
});
