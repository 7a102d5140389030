import { afterAll, beforeAll } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { envFor, paymentsReceived } from './gateway-env.js';
import { type PostgresServer, startPostgres } from './postgres.js';

/**
 * What the team-ledger end-to-end files share: a real PostgreSQL server on loopback
 * (scripts/postgres-server.mjs), one database per test, and a sandbox reached by URL that
 * every "terminal" (a HOME of its own) pays through. Started before the file's tests, removed after.
 */
export function teamLedgerRig() {
  let server: PostgresServer | undefined;
  let sandbox: RunningSandbox | undefined;

  beforeAll(async () => {
    [server, sandbox] = await Promise.all([startPostgres(), startSandbox({ recordRequests: true })]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([server?.remove(), sandbox?.close()]);
  });

  const rig = {
    get server(): PostgresServer {
      return server!;
    },
    get sandbox(): RunningSandbox {
      return sandbox!;
    },
    /** A terminal: its own HOME and state, the team ledger, an operator name. */
    terminal(ledger: string, operator: string, extra: Record<string, string> = {}): Record<string, string> {
      return envFor(rig.sandbox, {
        AGENTPAY_LEDGER: ledger,
        AGENTPAY_OPERATOR: operator,
        AGENTPAY_SETTLE_DELAY: '20',
        ...extra,
      });
    },
    payStatic: (account: string, extra: string[] = []) => [
      'pay',
      '--service',
      '201',
      '--account',
      account,
      '--amount',
      '150.00',
      '--currency',
      'KZT',
      ...extra,
    ],
    paymentsFor: (account: string) => paymentsReceived(rig.sandbox).filter((form) => form.get('Account') === account),
  };
  return rig;
}
