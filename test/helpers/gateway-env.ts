import { sandboxCodeTable } from '../../src/protocol/sandbox-codes.js';
import { sandboxCredentials } from '../../src/sandbox/catalogue.js';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/server.js';
import { codeTableEnvironment } from '../../src/settings/code-lists.js';
import { isolatedEnv } from './cli.js';

/**
 * The sandbox's code table as a user reaching it by URL would configure it (README
 * "Connecting to a real gateway"): without it, only 10 is final.
 */
export const sandboxCodeEnv = codeTableEnvironment(sandboxCodeTable);

/** A sandbox on a free loopback port that records what it received, and the env to reach it. */
export async function sandboxWithEnv(
  options: SandboxOptions = {},
): Promise<{ sandbox: RunningSandbox; env: Record<string, string> }> {
  const sandbox = await startSandbox({ recordRequests: true, ...options });
  const env = isolatedEnv({
    AGENTPAY_BASE_URL: sandbox.baseUrl,
    AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
    ...sandboxCodeEnv,
  });
  return { sandbox, env };
}

export function paymentsReceived(sandbox: RunningSandbox): URLSearchParams[] {
  return sandbox.received.filter((form) => form.get('RequestType') === 'Payment');
}

/** A fresh isolated env (its own config and state dirs) pointed at a running sandbox. */
export function envFor(sandbox: RunningSandbox, extra: Record<string, string> = {}): Record<string, string> {
  return isolatedEnv({
    AGENTPAY_BASE_URL: sandbox.baseUrl,
    AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
    ...sandboxCodeEnv,
    ...extra,
  });
}
