#!/usr/bin/env node
// The speed benchmark (docs/performance.md; not a test: timing is not a test).
// Each target is a ratio against a floor measured in the same run, never an absolute time:
// runs alternate floor and agentpay (A B B A ...) after a warm-up, so load on the machine hits
// both sides, and the table shows medians. Loopback only; every loop is bounded; stops by itself.
//
//   npm run bench                        # build, then all comparisons
//   npm run bench -- --runs 5            # fewer runs per comparison (quicker, noisier)
//   npm run bench -- --only check,pay    # some comparisons: startup completion status batch reconcile check pay bulk
//                                        #   slowCheck slowPay slowBulk teamPay teamReconcile memory sandboxState
//                                        #   history registry binary (binary: after `npm run package`)
//
// The slow* comparisons talk to a second bench gateway that answers after `latencyMs`, as one
// across a network does: what a user waits on is then mostly the gateway, and agentpay's share
// is what it adds to that.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGateway, writeIds } from './bench/inputs.mjs';
import { startLedgerServer } from './bench/ledger.mjs';
import { lookupComparisons } from './bench/look-ups.mjs';
import { children } from './bench/measure.mjs';
import { purchaseComparisons } from './bench/purchases.mjs';
import { report } from './bench/report.mjs';
import { scaleComparisons } from './bench/scale.mjs';
import { singleExecutableComparisons } from './bench/single-executable.mjs';
import { startupComparisons } from './bench/start-up.mjs';
import { teamComparisons } from './bench/team.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' } } });
const runsOverride = values.runs === undefined ? undefined : Math.max(3, Number(values.runs));
const runsFor = (standard) => runsOverride ?? standard;
const only = values.only === undefined ? undefined : new Set(values.only.split(','));

const root = fileURLToPath(new URL('..', import.meta.url));
const paths = {
  node: process.execPath,
  bin: join(root, 'bin/agentpay.js'),
  floors: join(root, 'scripts/bench'),
  work: mkdtempSync(join(tmpdir(), 'agentpay-bench-')),
};
const { work } = paths;

const firstId = 1795289214527958198n;
const batchSize = 5_000;
const memoryBatchSize = 100_000;
const historyEntries = 1_000_000;
/** Transactions of the SQLite ledger `reconcile` reads. */
const ledgerEntries = 100_000;
/** Open transactions for reconcile with each ledger (target 10). */
const openEntries = 100_000;
/** Rows of the registry, and payments of the ledger, `reconcile --registry` compares (target 11). */
const registryEntries = 200_000;
/** Payments in the `--sandbox` state a Status batch is answered from. */
const sandboxEntries = 200_000;
/** The team ledger's server, started by the first comparison that needs it. */
let ledgerServer;
const concurrency = 8;
/** The slow gateway's wait before each answer. */
const latencyMs = 50;
const { checkRows, payRows, bulkRows, purchase } = purchaseComparisons({ paths, runsFor, concurrency });
/** The bench gateway that answers after `latencyMs`, started by the first comparison that needs it. */
let slow;
const slowGateway = async () => (slow ??= await startGateway(paths, firstId, 0, latencyMs));

/** What each comparison module is given (scripts/bench/*.mjs). */
const bench = {
  paths,
  runsFor,
  firstId,
  concurrency,
  purchase,
  sizes: { batchSize, memoryBatchSize, historyEntries, ledgerEntries, openEntries, registryEntries, sandboxEntries },
  /** The team ledger's server, started by the first comparison that needs it. */
  ledgerServerFor: async (env) => (ledgerServer ??= await startLedgerServer(paths, env)),
};
const { startup, completion } = startupComparisons(bench);
const { status, batch, reconcile } = lookupComparisons(bench);
const { memory, sandboxState, history, registry } = scaleComparisons(bench);
const { teamPay, teamReconcile } = teamComparisons(bench);
const binary = singleExecutableComparisons(bench, slowGateway, latencyMs);

// ---------------------------------------------------------------- the comparisons, in the table's order

const comparisons = {
  startup,
  completion,
  status,
  batch,
  reconcile,
  check: ({ env, gateway }) => checkRows(env, gateway, { target: 'single', limit: 1.6 }),
  slowCheck: async ({ env }) => checkRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.3 }),
  binary,
  pay: ({ env, gateway }) => payRows(env, gateway, { target: 'single', limit: 1.6 }),
  slowPay: async ({ env }) => payRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.3 }),
  bulk: ({ env, gateway }) => bulkRows(env, gateway, { target: '(bulk)', memory: true }),
  slowBulk: async ({ env }) => bulkRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.08 }),
  memory,
  sandboxState,
  teamPay,
  teamReconcile,
  history,
  registry,
};

// ---------------------------------------------------------------- the run

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const machine = {
  node: process.version,
  cpus: `${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown'}`,
  memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  loadBefore: load(),
};
let gateway;
try {
  process.stderr.write(`bench: preparing inputs in ${work}\n`);
  gateway = await startGateway(paths, firstId, memoryBatchSize);
  const ids = join(work, 'ids-5000.txt');
  await writeIds(ids, firstId, batchSize);
  const home = join(work, 'home');
  // Every process, floor or agentpay, gets this same small environment: variables of the
  // calling shell that change what Node does at start-up (NODE_OPTIONS, NODE_EXTRA_CA_CERTS)
  // stay out of the comparison.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_STATE_HOME: join(home, 'state'),
    NO_COLOR: '1',
    AGENTPAY_BASE_URL: gateway.baseUrl,
    AGENTPAY_AGENT_ID: '1001',
    AGENTPAY_PASSWORD: 'sandbox-demo-password',
  };
  const rows = [];
  for (const [name, comparison] of Object.entries(comparisons)) {
    // The single executable's rows need `npm run package` first: only when --only names them.
    if (only === undefined ? name === 'binary' : !only.has(name)) continue;
    process.stderr.write(`bench: ${name}\n`);
    rows.push(...(await comparison({ env, gateway, ids })));
  }
  machine.loadAfter = load();
  process.stdout.write(`${report(machine, rows, runsFor)}\n`);
} finally {
  gateway?.stop();
  slow?.stop();
  await ledgerServer?.stop();
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
