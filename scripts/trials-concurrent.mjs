#!/usr/bin/env node
// Concurrency trials (docs/reliability.md "Trials of runs at once"): the same order file run
// 2-3 times 0-1.5 s apart, with a renamed copy of it now and then; pairs of single `pay`s of one
// top-up started at the same instant; some of every kind SIGKILLed at random. On the SQLite
// ledger (one home, as processes of one machine) and on a real PostgreSQL (three homes, as three
// terminals). Then each file is run to its end, and the sandbox's committed payments are held
// against the ledger: no account paid twice, no payment missing from the ledger, no row of a
// finished file unpaid. Loopback only; bounded. Usage:
//   npm run trials:concurrent -- [--files 10] [--pairs 15] [--rows 8] [--seed 1] [--ledger sqlite|postgres|both]
// (`--ledger file` is an older name for sqlite.)
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { seededRandom } from './seeded-random.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10' },
    pairs: { type: 'string', default: '15' },
    rows: { type: 'string', default: '8' },
    seed: { type: 'string', default: '1' },
    ledger: { type: 'string', default: 'both' },
  },
});
const [files, pairs, rows] = [Number(values.files), Number(values.pairs), Number(values.rows)];
const random = seededRandom(Number(values.seed));
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/agentpay.js');
const { startSandbox } = await import(join(root, 'dist/sandbox/server.js'));
const { sandboxCredentials } = await import(join(root, 'dist/sandbox/catalogue.js'));
const { sandboxCodeTable } = await import(join(root, 'dist/protocol/sandbox-codes.js'));
const { codeTableEnvironment } = await import(join(root, 'dist/settings/code-lists.js'));

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const pick = (list) => list[Math.floor(random() * list.length)];

/** One process; SIGKILLed after `killAfterMs` when given. */
function run(env, args, killAfterMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

async function trial(kind) {
  const base = mkdtempSync(join(tmpdir(), `agentpay-trials-concurrent-${kind}-`));
  // 20 ms an answer, and a fifth of Payment answers lost after commit: settled by Status.
  const sandbox = await startSandbox({ faults: { failRate: 0.2, latencyMs: 20 } });
  const postgres = kind === 'postgres' ? await (await import('./postgres-server.mjs')).startPostgres() : undefined;
  const homes = Array.from({ length: kind === 'postgres' ? 3 : 1 }, (_, index) => join(base, `terminal-${index}`));
  const envOf = (home) => ({
    PATH: process.env.PATH,
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    NO_COLOR: '1',
    AGENTPAY_BASE_URL: sandbox.baseUrl,
    AGENTPAY_AGENT_ID: sandboxCredentials.agentId,
    AGENTPAY_PASSWORD: sandboxCredentials.password,
    AGENTPAY_SETTLE_DELAY: '20',
    ...(postgres === undefined ? {} : { AGENTPAY_LEDGER: postgres.url('postgres') }),
    ...codeTableEnvironment(sandboxCodeTable),
  });
  const terminal = () => envOf(pick(homes));
  const exits = new Map();
  const count = (key) => exits.set(key, (exits.get(key) ?? 0) + 1);
  const bulk = (path) => ['--json', 'pay', '--from-file', path, '--yes', '--concurrency', '4'];
  const startedAt = Date.now();

  // A full run of one file here, now: kills are drawn across [0, 1.5 × that].
  const probe = join(base, 'probe.csv');
  writeFileSync(
    probe,
    `key,service,account,invoice-id\n${Array.from({ length: rows }, (_, i) => `P${i},101,probe-${i},5002`).join('\n')}\n`,
  );
  const probeStarted = performance.now();
  await run(terminal(), bulk(probe));
  const killWindowMs = Math.round((performance.now() - probeStarted) * 1.5);

  const fileAccounts = [];
  for (let file = 0; file < files; file++) {
    const path = join(base, `day-${file}.csv`);
    const accounts = Array.from({ length: rows }, (_, i) => `${kind}-f${file}-${i}`);
    fileAccounts.push(...accounts);
    writeFileSync(
      path,
      `key,service,account,invoice-id\n${accounts.map((account, i) => `K${i},101,${account},5002`).join('\n')}\n`,
    );
    const starts = [path, path, ...(random() < 0.5 ? [path] : [])];
    if (random() < 0.5) {
      const copy = join(base, `day-${file}-copy.csv`);
      copyFileSync(path, copy);
      starts.push(copy);
    }
    const runs = starts.map(async (input, index) => {
      await pause(index === 0 ? 0 : Math.floor(random() * 1500));
      const killed = random() < 0.3;
      const result = await run(terminal(), bulk(input), killed ? Math.floor(random() * killWindowMs) : undefined);
      count(`file run: ${result.signal ?? `exit ${result.code}`}`);
    });
    await Promise.all(runs);
    // The file to its end: open rows settled by Status, the rest paid (or refused as what a copy paid).
    let finished;
    for (let attempt = 0; attempt < 4 && finished?.code !== 0; attempt++) finished = await run(terminal(), bulk(path));
    count(`finishing run: exit ${finished.code}`);
  }

  const pairAccounts = [];
  for (let pair = 0; pair < pairs; pair++) {
    const account = `${kind}-p${pair}`;
    pairAccounts.push(account);
    const args = ['pay', '--service', '101', '--account', account, '--invoice-id', '5002'];
    const results = await Promise.all(
      [0, 1].map(() => run(terminal(), args, random() < 0.2 ? Math.floor(random() * 600) : undefined)),
    );
    for (const result of results) count(`single pay: ${result.signal ?? `exit ${result.code}`}`);
  }

  // Whatever a kill left open, settled as cron would.
  count(`reconcile: exit ${(await run(terminal(), ['reconcile'])).code}`);

  const committed = sandbox.store.all().filter((payment) => payment.account.startsWith(`${kind}-`));
  const intents = await intentIds(envOf(homes[0]), postgres);
  const perAccount = new Map();
  for (const payment of committed) perAccount.set(payment.account, (perAccount.get(payment.account) ?? 0) + 1);
  const result = {
    kind,
    runs: [...exits.values()].reduce((sum, n) => sum + n, 0),
    exits,
    seconds: Math.round((Date.now() - startedAt) / 1000),
    killWindowMs,
    paidTwice: [...perAccount.values()].filter((n) => n > 1).length,
    lost: committed.filter((payment) => !intents.has(payment.transactionId)).length,
    unpaidRows: fileAccounts.filter((account) => !perAccount.has(account)).length,
    unpaidPairs: pairAccounts.filter((account) => !perAccount.has(account)).length,
  };
  await sandbox.close();
  await postgres?.remove();
  rmSync(base, { recursive: true, force: true });
  return result;
}

/** Every TransactionID the ledger holds an intent for. */
async function intentIds(env, postgres) {
  if (postgres === undefined) {
    const exported = await run(env, ['ledger', 'export']);
    if (exported.code !== 0)
      throw new Error(`ledger export: exit ${exported.code ?? exported.signal}\n${exported.stderr}`);
    return new Set(
      exported.stdout
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .filter((record) => record.kind === 'intent')
        .map((record) => record.transactionId),
    );
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client(postgres.url('postgres'));
  await client.connect();
  try {
    return new Set(
      (await client.query('SELECT transaction_id FROM agentpay_transactions')).rows.map((row) => row.transaction_id),
    );
  } finally {
    await client.end();
  }
}

if (!['sqlite', 'file', 'postgres', 'both'].includes(values.ledger))
  throw new Error('--ledger takes sqlite, postgres or both');
const kinds = values.ledger === 'both' ? ['sqlite', 'postgres'] : [values.ledger === 'file' ? 'sqlite' : values.ledger];
let failures = 0;
for (const kind of kinds) {
  const r = await trial(kind);
  const ok = (n) => (n === 0 ? 'ok  ' : 'FAIL');
  failures += r.paidTwice + r.lost + r.unpaidRows;
  const lines = [
    `concurrent trials, ${kind === 'sqlite' ? 'SQLite ledger' : 'PostgreSQL'}: ${files} files of ${rows} rows run 2-3 times 0-1.5 s apart (half with a renamed copy), ${pairs} pairs of single pays at one instant, 3 in 10 file runs and 1 in 5 pays SIGKILLed; seed ${values.seed}`,
    `${r.runs} runs in ${r.seconds} s; kills drawn across [0, ${r.killWindowMs}] ms of a file run, [0, 600] ms of a pay`,
    ...[...r.exits].sort().map(([key, n]) => `  ${key.padEnd(28)} ${n}`),
    `${ok(r.paidTwice)} accounts paid twice: ${r.paidTwice}`,
    `${ok(r.lost)} committed payments missing from the ledger (lost): ${r.lost}`,
    `${ok(r.unpaidRows)} rows of finished files never paid: ${r.unpaidRows}`,
    `     pairs never paid (both killed, or the survivor refused as a duplicate of the killed one's open intent): ${r.unpaidPairs}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exitCode = failures === 0 ? 0 : 1;
