#!/usr/bin/env node
// Bulk no-loss trials (docs/reliability.md "Trials of bulk runs"): `pay --from-file` of a file of
// orders against the sandbox (some answers lost after commit), SIGKILLed at seeded random points
// `--kills` times, then run again until it finishes; checks that every row was paid exactly once,
// that every committed payment is in the ledger, and that the results file and the ledger agree.
// The ledger is read back with `agentpay ledger export`; with --ledger postgres it is a real
// PostgreSQL server started here (scripts/postgres-server.mjs). Loopback only; bounded. Usage:
//   npm run trials:bulk -- [--files 20] [--rows 20] [--kills 3] [--seed 1] [--ledger sqlite|postgres]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from './seeded-random.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '20' },
    rows: { type: 'string', default: '20' },
    kills: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    ledger: { type: 'string', default: 'sqlite' },
  },
});
if (!['sqlite', 'file', 'postgres'].includes(values.ledger)) throw new Error('--ledger takes sqlite or postgres');
const [files, rows, kills] = [Number(values.files), Number(values.rows), Number(values.kills)];
const random = seededRandom(Number(values.seed));
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/agentpay.js');
const { startSandbox } = await import(join(root, 'dist/sandbox/server.js'));
const { sandboxCredentials } = await import(join(root, 'dist/sandbox/catalogue.js'));
const { sandboxCodeTable } = await import(join(root, 'dist/protocol/sandbox-codes.js'));
const { codeTableEnvironment } = await import(join(root, 'dist/settings/code-lists.js'));

const home = mkdtempSync(join(tmpdir(), 'agentpay-trials-bulk-'));
const sandbox = await startSandbox({ faults: { failRate: 0.2, latencyMs: 5 } });
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
  AGENTPAY_SETTLE_DELAY: '20',
  ...(postgres === undefined ? {} : { AGENTPAY_LEDGER: postgres.url() }),
  ...codeTableEnvironment(sandboxCodeTable),
};

const payArgs = (orders) => ['pay', '--from-file', orders, '--yes', '--json', '--concurrency', '4'];

function run(args, killAfterMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'ignore'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout });
    });
  });
}

const ordersOf = (name) => {
  const path = join(home, `${name}.csv`);
  const lines = Array.from({ length: rows }, (_, i) => `K${i + 1},101,${name}-${i + 1},5002`);
  writeFileSync(path, `key,service,account,invoice-id\n${lines.join('\n')}\n`);
  return path;
};

// A full run of one file on this machine, now (median of three): kills are drawn across [0, 1.25 × that].
const fullRuns = [];
for (let i = 0; i < 3; i++) {
  const started = performance.now();
  await run(payArgs(ordersOf(`full-${i}`)));
  fullRuns.push(performance.now() - started);
}
const windowMs = Math.round(fullRuns.sort((a, b) => a - b)[1] * 1.25);
const exits = new Map();
const count = (key) => exits.set(key, (exits.get(key) ?? 0) + 1);
let unfinished = 0;
for (let file = 0; file < files; file++) {
  const orders = ordersOf(`f${file}`);
  for (let kill = 0; kill < kills; kill++) {
    const result = await run(payArgs(orders), Math.floor(random() * windowMs));
    count(`killed run: ${result.signal ?? `exit ${result.code}`}`);
  }
  let finished;
  for (let attempt = 0; attempt < 5 && finished?.code !== 0; attempt++) finished = await run(payArgs(orders));
  count(`finishing run: exit ${finished.code}`);
  if (finished.code !== 0) unfinished++;
}

const exported = await run(['ledger', 'export']);
if (exported.code !== 0) throw new Error(`ledger export: exit ${exported.code ?? exported.signal}`);
const journal = exported.stdout
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const intents = new Set(journal.filter((r) => r.kind === 'intent').map((r) => r.transactionId));
const committed = sandbox.store.all().filter((t) => /^f\d+-/.test(t.account));
const perAccount = new Map();
for (const t of committed) perAccount.set(t.account, (perAccount.get(t.account) ?? 0) + 1);
const paidTwice = [...perAccount.values()].filter((n) => n > 1).length;
const lost = committed.filter((t) => !intents.has(t.transactionId)).length;
const unpaid = files * rows - perAccount.size;
let notFinalInResults = 0;
for (let file = 0; file < files; file++) {
  const lines = readFileSync(join(home, `f${file}.results.csv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  notFinalInResults += lines.filter((line) => !/,(success|failed),/.test(line)).length + (rows - lines.length);
}
const rowsOut = [
  `bulk trials, ${postgres ? 'PostgreSQL' : 'SQLite ledger'}: ${files} files of ${rows} rows, each SIGKILLed ${kills} times at random, then run to the end; seed ${values.seed}`,
  `full run (median of 3, 5 ms latency, 20% of Payment answers lost after commit): ${Math.round(windowMs / 1.25)} ms; kills drawn across [0, ${windowMs}] ms`,
  ...[...exits].sort().map(([key, n]) => `  ${key.padEnd(24)} ${n}`),
  `${paidTwice === 0 ? 'ok  ' : 'FAIL'} rows paid twice: ${paidTwice}`,
  `${lost === 0 ? 'ok  ' : 'FAIL'} committed payments missing from the ledger (lost): ${lost}`,
  `${unpaid === 0 ? 'ok  ' : 'FAIL'} rows never paid: ${unpaid}`,
  `${notFinalInResults === 0 && unfinished === 0 ? 'ok  ' : 'FAIL'} rows not final in the results files after the finishing run: ${notFinalInResults}`,
];
process.stdout.write(`${rowsOut.join('\n')}\n`);
await sandbox.close();
await postgres?.remove();
rmSync(home, { recursive: true, force: true });
process.exitCode = paidTwice + lost + unpaid + notFinalInResults + unfinished === 0 ? 0 : 1;
