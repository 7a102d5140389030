#!/usr/bin/env node
// No-loss trials (docs/reliability.md): pays against the sandbox while
// killing the process at random points, dropping answers after commit, and timing requests
// out; then runs `reconcile` and checks the promise. Loopback only. Usage:
//   npm run trials -- [--kills 200] [--drops 100] [--timeouts 100] [--seed 1] [--ledger sqlite|postgres]
// The ledger is read back with `agentpay ledger export` (`--ledger file` is an older name for sqlite).
// With --ledger postgres the ledger is a real PostgreSQL server started here (scripts/postgres-server.mjs)
// and the payers are two terminals (two HOMEs) sharing it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from './seeded-random.mjs';

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '200' },
    drops: { type: 'string', default: '100' },
    timeouts: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    ledger: { type: 'string', default: 'sqlite' },
  },
});
if (!['sqlite', 'file', 'postgres'].includes(values.ledger)) throw new Error('--ledger takes sqlite or postgres');

// The kill delays from --seed, so a run can be repeated.
const random = seededRandom(Number(values.seed));
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/agentpay.js');
const { startSandbox } = await import(join(root, 'dist/sandbox/server.js'));
const { sandboxCredentials } = await import(join(root, 'dist/sandbox/catalogue.js'));
const { sandboxCodeTable } = await import(join(root, 'dist/protocol/sandbox-codes.js'));
const { codeTableEnvironment } = await import(join(root, 'dist/settings/code-lists.js'));

const home = mkdtempSync(join(tmpdir(), 'agentpay-trials-'));
const sandbox = await startSandbox({});
const postgres =
  values.ledger === 'postgres' ? await (await import('./postgres-server.mjs')).startPostgres() : undefined;
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_STATE_HOME: join(home, 'state'),
  XDG_CONFIG_HOME: join(home, 'config'),
  NO_COLOR: '1',
  AGENTPAY_BASE_URL: sandbox.baseUrl,
  AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
  AGENTPAY_PASSWORD: sandboxCredentials.password,
  AGENTPAY_SETTLE_DELAY: '50',
  // The sandbox reached by URL, with its code table given as a user would (README "Connecting to a real gateway").
  ...codeTableEnvironment(sandboxCodeTable),
};
if (postgres) env.AGENTPAY_LEDGER = postgres.url();
/** The second terminal of a team ledger: its own HOME and state, the same ledger. */
const otherTerminal = {
  HOME: join(home, 'terminal-2'),
  XDG_STATE_HOME: join(home, 'terminal-2', 'state'),
  AGENTPAY_OPERATOR: 'terminal-2',
};
let turn = 0;
const nextTerminal = () => (postgres && turn++ % 2 === 1 ? otherTerminal : {});

function run(args, extraEnv = {}, killAfterMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...env, ...nextTerminal(), ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.resume();
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout });
    });
  });
}

const exits = new Map();
const count = (kind, result) => {
  const key = `${kind}: ${result.signal ?? `exit ${result.code}`}`;
  exits.set(key, (exits.get(key) ?? 0) + 1);
};
let purchase = 0;
const pay = (extra = []) => [
  'pay',
  '--service',
  '201',
  '--account',
  `trial-${purchase++}`,
  '--amount',
  '100.00',
  ...extra,
];

sandbox.faults.latencyMs = 40;
// A full pay run on this machine, now (median of five, unkilled, the same latency): kill delays
// are drawn across [0, 1.25 × that], so they land during start-up, during the exchange and
// after it, however fast start-up is. These runs count as purchases and are checked too.
const fullRuns = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  count('full run', await run(pay()));
  fullRuns.push(performance.now() - started);
}
const fullRunMs = fullRuns.sort((a, b) => a - b)[2];
const killWindowMs = Math.round(fullRunMs * 1.25);
const killedAccounts = [];
for (let i = 0; i < Number(values.kills); i++) {
  const args = pay();
  const result = await run(args, {}, Math.floor(random() * killWindowMs));
  count('kill', result);
  if (result.signal === 'SIGKILL') killedAccounts.push(args[4]);
}
sandbox.faults.latencyMs = 0;
for (let i = 0; i < Number(values.drops); i++) {
  sandbox.faults.dropAfterCommit = 1;
  count('drop', await run(pay()));
}
sandbox.faults.dropAfterCommit = 0;
sandbox.faults.latencyMs = 300;
for (let i = 0; i < Number(values.timeouts); i++)
  count('timeout', await run(pay(['--timeout', '150', '--settle-attempts', '1'])));
sandbox.faults.latencyMs = 0;

/** Every record of the ledger, as `ledger export` writes it (journal lines), whichever the backend. */
async function readJournal() {
  const exported = await run(['ledger', 'export']);
  if (exported.code !== 0) throw new Error(`ledger export: exit ${exported.code ?? exported.signal}`);
  return exported.stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
const before = await readJournal();
const final = new Set(
  before
    .filter((r) => r.kind === 'outcome' && ['success', 'failed'].includes(r.view.state))
    .map((r) => r.transactionId),
);
const leftOpen = before.filter((r) => r.kind === 'intent' && !final.has(r.transactionId)).map((r) => r.transactionId);
const committedIds = new Set(sandbox.store.all().map((t) => t.transactionId));
const reconcile = await run(['reconcile', '--json', '--grace', '0']);
const committed = sandbox.store.all();
const records = await readJournal();
const intents = new Set(records.filter((r) => r.kind === 'intent').map((r) => r.transactionId));
const history = (await run(['history', '--json'])).stdout
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line));
const success = new Set(history.filter((h) => h.state === 'success').map((h) => h.transactionId));
const accounts = committed.map((t) => t.account);

const checks = {
  'committed payments missing from the ledger': committed.filter((t) => !intents.has(t.transactionId)).length,
  'ledger entries not final after reconcile': history.filter((h) => h.state !== 'success' && h.state !== 'failed')
    .length,
  'committed payments not settled as success': committed.filter((t) => !success.has(t.transactionId)).length,
  'successes the sandbox never committed': [...success].filter((id) => !committed.some((t) => t.transactionId === id))
    .length,
  'purchases charged twice': accounts.length - new Set(accounts).size,
};
console.log(`ledger: ${postgres ? 'PostgreSQL (two terminals)' : 'SQLite ledger'}; seed ${values.seed}`);
console.log(
  `trials: ${purchase} purchases (${fullRuns.length} full runs, ${values.kills} killed, ${values.drops} dropped, ${values.timeouts} timed out); reconcile exit ${reconcile.code}`,
);
console.log(
  `full pay run (median of ${fullRuns.length}, 40 ms latency): ${Math.round(fullRunMs)} ms; kills drawn across [0, ${killWindowMs}] ms`,
);
console.log(`sandbox committed ${committed.length}; ledger holds ${intents.size} intents`);
for (const [key, n] of [...exits].sort()) console.log(`  ${key.padEnd(24)} ${n}`);
const intentAccounts = new Set(records.filter((r) => r.kind === 'intent').map((r) => r.account));
const committedAccounts = new Set(committed.map((t) => t.account));
const killedBeforeIntent = killedAccounts.filter((a) => !intentAccounts.has(a)).length;
const killedAfterCommit = killedAccounts.filter((a) => committedAccounts.has(a)).length;
console.log(
  `SIGKILLed: ${killedBeforeIntent} in start-up (no intent yet), ${killedAccounts.length - killedBeforeIntent - killedAfterCommit} with the intent written but nothing committed, ${killedAfterCommit} in the exchange (committed, answer not yet handled); exit 0: finished first`,
);
console.log(
  `not final before reconcile: ${leftOpen.length} (${leftOpen.filter((id) => committedIds.has(id)).length} committed with the answer lost, ${leftOpen.filter((id) => !committedIds.has(id)).length} never reached the gateway)`,
);
for (const [check, n] of Object.entries(checks)) console.log(`${n === 0 ? 'ok  ' : 'FAIL'} ${check}: ${n}`);
await sandbox.close();
await postgres?.remove();
rmSync(home, { recursive: true, force: true });
process.exitCode = Object.values(checks).every((n) => n === 0) && reconcile.code === 0 ? 0 : 1;
