#!/usr/bin/env node
// The speed benchmark (docs/performance.md; not a test: timing is not a test).
// Each target is a ratio against a floor measured in the same run, never an absolute time:
// runs alternate floor and agentpay (A B B A ...) after a warm-up, so load on the machine hits
// both sides, and the table shows medians. Loopback only; every loop is bounded; stops by itself.
//
//   npm run bench                        # build, then all comparisons
//   npm run bench -- --runs 5            # fewer runs per comparison (quicker, noisier)
//   npm run bench -- --only check,pay    # some comparisons: startup completion status batch reconcile check pay bulk
//                                        #   slowCheck slowPay slowBulk teamPay teamReconcile memory history registry
//
// The slow* comparisons talk to a second bench gateway that answers after `latencyMs`, as one
// across a network does: what a user waits on is then mostly the gateway, and agentpay's share
// is what it adds to that.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startGateway, writeIds, writeJournal, writeOpenJournal, writeRegistry } from './bench/inputs.mjs';
import { startLedgerServer } from './bench/ledger.mjs';
import { children, compare, peakRss } from './bench/measure.mjs';
import { purchaseComparisons } from './bench/purchases.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' } } });
const runsOverride = values.runs === undefined ? undefined : Math.max(3, Number(values.runs));
const runsFor = (standard) => runsOverride ?? standard;
const only = values.only === undefined ? undefined : new Set(values.only.split(','));

const root = fileURLToPath(new URL('..', import.meta.url));
const paths = { node: process.execPath, bin: join(root, 'bin/agentpay.js'), floors: join(root, 'scripts/bench'), work: mkdtempSync(join(tmpdir(), 'agentpay-bench-')) };
const { node, bin, floors, work } = paths;

const firstId = 1795289214527958198n;
const batchSize = 5_000;
const memoryBatchSize = 100_000;
const historyEntries = 1_000_000;
const journalEntries = 100_000;
/** Open transactions for reconcile with each ledger (target 10). */
const openEntries = 100_000;
/** Rows of the registry, and payments of the journal, `reconcile --registry` compares (target 11). */
const registryEntries = 200_000;
/** The team ledger's server, started by the first comparison that needs it. */
let ledgerServer;
const concurrency = 8;
/** The slow gateway's wait before each answer. */
const latencyMs = 50;
const { checkRows, payRows, bulkRows, purchase } = purchaseComparisons({ paths, runsFor, concurrency });
/** The bench gateway that answers after `latencyMs`, started by the first comparison that needs it. */
let slow;
const slowGateway = async () => (slow ??= await startGateway(paths, firstId, 0, latencyMs));

const ok = (expectLines) => (_side, result) =>
  result.code !== 0 ? `exit ${result.code ?? result.signal}` : expectLines !== undefined && result.lines !== expectLines ? `${result.lines} lines, not ${expectLines}` : undefined;
const expectAnswer = (text) => (side, result) => ok(1)(side, result) ?? (result.head.includes(text) ? undefined : `unexpected answer ${result.head}`);

// ---------------------------------------------------------------- the comparisons, each giving rows

const comparisons = {
  async startup({ env }) {
    const [floor, version, help] = await compare({
      runs: runsFor(21),
      floor: { label: 'node -e 0', command: [node, ['-e', '0'], { env }] },
      candidates: [
        { label: '--version', command: [node, [bin, '--version'], { env }] },
        { label: '--help', command: [node, [bin, '--help'], { env }] },
      ],
      check: (side, result) => ok(side.label === '--version' ? 1 : undefined)(side, result),
    });
    return [
      { target: 'start-up', what: '`agentpay --version`', floorLabel: '`node -e 0`', floor, value: version, limit: 2 },
      { target: '(start-up)', what: '`agentpay --help`', floorLabel: '`node -e 0`', floor, value: help },
    ];
  },

  async completion({ env }) {
    // What a shell runs on each Tab (completion/scripts.ts): values from the sandbox's
    // catalogue, and profile names from a config file.
    const config = join(work, 'completion-config');
    mkdirSync(join(config, 'agentpay'), { recursive: true });
    writeFileSync(join(config, 'agentpay', 'config.json'), JSON.stringify({ profiles: { default: { services: { 301: 'Water' } }, night: {} } }));
    const completionEnv = { ...env, XDG_CONFIG_HOME: config };
    const [floor, services, profiles] = await compare({
      runs: runsFor(21),
      floor: { label: 'node -e 0', command: [node, ['-e', '0'], { env }] },
      candidates: [
        { label: 'services', command: [node, [bin, '__complete', '--sandbox', 'check', '--service', ''], { env: completionEnv }] },
        { label: 'profiles', command: [node, [bin, '__complete', '--profile', ''], { env: completionEnv }] },
      ],
      check: (side, result) => ok(side.label === 'services' ? 4 : side.label === 'profiles' ? 2 : undefined)(side, result),
    });
    return [
      { target: 'Tab', what: "a completion request: `agentpay __complete --sandbox check --service ''`", floorLabel: '`node -e 0`', floor, value: services, limit: 1.5 },
      { target: 'Tab', what: "a completion request reading the config file: `agentpay __complete --profile ''`", floorLabel: '`node -e 0`', floor, value: profiles, limit: 1.5 },
    ];
  },

  async status({ env, gateway }) {
    const id = firstId.toString();
    const [floor, status, depsOnly] = await compare({
      runs: runsFor(15),
      floor: { label: 'node:http', command: [node, [join(floors, 'status-one.mjs'), gateway.baseUrl, id], { env }] },
      candidates: [
        { label: 'agentpay', command: [node, [bin, 'status', id, '--json'], { env }] },
        { label: 'deps only', command: [node, [join(floors, 'deps-only.mjs'), gateway.baseUrl, id], { env }] },
      ],
      check: expectAnswer('"status":"10"'),
    });
    return [
      { target: 'single', what: '`agentpay status <id> --json`', floorLabel: 'bare `node:http` POST', floor, value: status, limit: 1.6 },
      { target: '(single)', what: 'reference, not agentpay: commander + lossless-json alone, same POST', floorLabel: 'bare `node:http` POST', floor, value: depsOnly },
    ];
  },

  async batch({ env, gateway, ids }) {
    const [floor, status] = await compare({
      runs: runsFor(7),
      floor: { label: 'node:http', command: [node, [join(floors, 'status-batch.mjs'), gateway.baseUrl, ids, String(concurrency)], { env }] },
      candidates: [{ label: 'agentpay', command: [node, [bin, 'status', '--from-file', ids, '--concurrency', String(concurrency), '--json'], { env }] }],
      check: ok(batchSize),
    });
    const what = `\`status --from-file\` ${batchSize.toLocaleString('en')} ids \`--concurrency ${concurrency} --json\``;
    return [{ target: 'batch', what, floorLabel: `bare \`node:http\` keep-alive, ${concurrency} at a time`, floor, value: status, limit: 1.2 }];
  },

  async reconcile({ env, gateway }) {
    const journal = join(work, 'journal.jsonl');
    const journalCopy = join(work, 'journal-run.jsonl');
    const openEntries = await writeJournal(journal, gateway.baseUrl, journalEntries, { firstId, unknownToGateway: memoryBatchSize });
    const [floor, reconcile] = await compare({
      runs: runsFor(7),
      floor: { label: 'read once', command: [node, [join(floors, 'read-journal.mjs'), journal], { env }] },
      // The bench gateway is not the embedded sandbox: its "not found" code is given, as for any gateway.
      candidates: [{ label: 'agentpay', command: [node, [bin, 'reconcile', '--not-found-codes', '25', '--json'], { env: { ...env, AGENTPAY_JOURNAL: journalCopy } }] }],
      // Each reconcile starts from the same journal: the last run's outcomes are not in it.
      before: (side) => side.label === 'agentpay' && copyFileSync(journal, journalCopy),
      check: (side, result) => ok(side.label === 'agentpay' ? openEntries : 1)(side, result),
    });
    const what = `\`reconcile\`, journal of ${journalEntries.toLocaleString('en')} transactions (${openEntries} open)`;
    return [{ target: 'reconcile', what, floorLabel: 'read the file once (stream, split lines)', floor, value: reconcile, limit: 2 }];
  },

  check: ({ env, gateway }) => checkRows(env, gateway, { target: 'single', limit: 1.6 }),
  slowCheck: async ({ env }) => checkRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.3 }),
  pay: ({ env, gateway }) => payRows(env, gateway, { target: 'single', limit: 1.6 }),
  slowPay: async ({ env }) => payRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.3 }),
  bulk: ({ env, gateway }) => bulkRows(env, gateway, { target: '(bulk)', memory: true }),
  slowBulk: async ({ env }) => bulkRows(env, await slowGateway(), { target: `${latencyMs} ms`, limit: 1.08 }),

  async memory({ env, ids }) {
    const manyIds = join(work, 'ids-100000.txt');
    await writeIds(manyIds, firstId, memoryBatchSize);
    const memory = await peakRss(paths, ['status', '--from-file', manyIds, '--concurrency', String(concurrency), '--json'], env);
    const memoryProblem = ok(memoryBatchSize)(undefined, memory.result);
    if (memoryProblem) throw new Error(`peak RSS run: ${memoryProblem}\n${memory.result.stderr}`);
    const small = await peakRss(paths, ['status', '--from-file', ids, '--concurrency', String(concurrency), '--json'], env);
    const megabytes = memory.kilobytes / 1024;
    const what = `peak RSS, \`status --from-file\` ${memoryBatchSize.toLocaleString('en')} ids (${batchSize.toLocaleString('en')} ids: ${(small.kilobytes / 1024).toFixed(0)} MB)`;
    return [{ target: 'memory', what, floorLabel: memory.how, megabytes, limitMb: 120 }];
  },

  async teamPay({ env }) {
    ledgerServer ??= await startLedgerServer(paths, env);
    const { service, account, currency, invoiceId } = purchase;
    const payArgs = ['pay', '--service', service, '--account', account, '--currency', currency, '--invoice-id', invoiceId, '--allow-duplicate', '--json'];
    const teamLedger = await ledgerServer.migrated('bench_pay');
    const [file, team] = await compare({
      runs: runsFor(15),
      floor: { label: 'file', command: [node, [bin, ...payArgs], { env: { ...env, AGENTPAY_LEDGER: join(work, 'pay-journal.jsonl') } }] },
      candidates: [{ label: 'postgres', command: [node, [bin, ...payArgs], { env: { ...env, AGENTPAY_LEDGER: teamLedger } }] }],
      check: expectAnswer('"status":"10"'),
    });
    return [
      {
        target: 'team',
        what: '`pay --invoice-id --json`, the ledger in PostgreSQL on loopback',
        floorLabel: 'the same `pay`, the journal file',
        floor: file,
        value: team,
        limit: 1.3,
      },
    ];
  },

  async teamReconcile({ env, gateway }) {
    ledgerServer ??= await startLedgerServer(paths, env);
    // 100,000 open transactions the bench gateway holds as paid: each run settles them all, from a fresh copy.
    const journal = join(work, 'open-journal.jsonl');
    const journalCopy = join(work, 'open-journal-run.jsonl');
    await writeOpenJournal(journal, gateway.baseUrl, openEntries, firstId);
    await ledgerServer.template('bench_open_template', { gateway: gateway.baseUrl, firstId, count: openEntries, settled: false });
    const reconcileArgs = ['reconcile', '--not-found-codes', '25', '--json'];
    const teamEnv = { ...env, AGENTPAY_LEDGER: ledgerServer.url('bench_open') };
    const [fileReconcile, teamReconcile] = await compare({
      runs: runsFor(3),
      warmUp: 0,
      floor: { label: 'file', command: [node, [bin, ...reconcileArgs], { env: { ...env, AGENTPAY_LEDGER: journalCopy } }] },
      candidates: [{ label: 'postgres', command: [node, [bin, ...reconcileArgs], { env: teamEnv }] }],
      before: async (side) => (side.label === 'file' ? copyFileSync(journal, journalCopy) : await ledgerServer.copy('bench_open_template', 'bench_open')),
      check: ok(openEntries),
    });
    const what = `\`reconcile\` of ${openEntries.toLocaleString('en')} open transactions, the ledger in PostgreSQL`;
    return [{ target: 'team', what, floorLabel: 'the same `reconcile`, the journal file', floor: fileReconcile, value: teamReconcile, limit: 1.5 }];
  },

  async history({ env }) {
    // A journal of 1,000,000 transactions (~630 MB), each in the table: peak RSS must not follow it.
    const journal = join(work, 'journal-history.jsonl');
    await writeJournal(journal, 'sandbox', historyEntries, { firstId, unknownToGateway: memoryBatchSize });
    const rows = [];
    for (const json of [true, false]) {
      const args = [...(json ? ['--json'] : []), 'history', '--journal', journal];
      const memory = await peakRss(paths, args, env);
      const seconds = memory.result.ms / 1000;
      // A line per transaction; the table adds its top border, its heading and its bottom border.
      const { code, lines } = memory.result;
      if (code !== 0 || lines !== historyEntries + (json ? 0 : 3)) throw new Error(`history run: exit ${code}, ${lines} lines\n${memory.result.stderr}`);
      const what = `peak RSS, \`history${json ? ' --json' : ''}\` of ${historyEntries.toLocaleString('en')} records (${seconds.toFixed(1)} s)`;
      rows.push({ target: 'memory', what, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 150 });
    }
    rmSync(journal);
    // The same in a PostgreSQL ledger: the rows stream a page at a time.
    ledgerServer ??= await startLedgerServer(paths, env);
    const teamLedger = await ledgerServer.template('bench_history', { gateway: 'sandbox', firstId, count: historyEntries, settled: true });
    const memory = await peakRss(paths, ['--json', 'history'], { ...env, AGENTPAY_LEDGER: teamLedger });
    if (memory.result.code !== 0 || memory.result.lines !== historyEntries)
      throw new Error(`history run (PostgreSQL): exit ${memory.result.code}, ${memory.result.lines} lines\n${memory.result.stderr}`);
    const what = `peak RSS, \`history --json\` of ${historyEntries.toLocaleString('en')} transactions in PostgreSQL (${(memory.result.ms / 1000).toFixed(1)} s)`;
    rows.push({ target: 'memory', what, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 150 });
    return rows;
  },
  async registry({ env }) {
    // The provider's registry of a busy day (200,000 rows) against a journal of the same
    // payments; the ledger's days are UTC days here, as the registry's are written.
    const journal = join(work, 'registry-journal.jsonl');
    const registry = join(work, 'registry.tsv');
    const inputs = { firstId, unknownToGateway: 1_000_000_000 };
    await writeJournal(journal, 'sandbox', registryEntries, inputs);
    const different = await writeRegistry(registry, registryEntries, inputs);
    const registryEnv = { ...env, TZ: 'UTC' };
    const args = ['--sandbox', '--json', 'reconcile', '--registry', registry, '--journal', journal];
    // The open transactions are listed as paid: "different", exit 1; everything else agrees.
    const agrees = (side, result) =>
      side?.label === 'floor'
        ? ok(1)(side, result)
        : result.code !== 1
          ? `exit ${result.code ?? result.signal}`
          : result.lines !== different
            ? `${result.lines} lines, not ${different}`
            : undefined;
    const [floor, reconcile] = await compare({
      runs: runsFor(5),
      floor: { label: 'floor', command: [node, [join(floors, 'read-registry.mjs'), registry, journal], { env: registryEnv }] },
      candidates: [{ label: 'agentpay', command: [node, [bin, ...args], { env: registryEnv }] }],
      check: agrees,
    });
    const memory = await peakRss(paths, args, registryEnv);
    const memoryProblem = agrees(undefined, memory.result);
    if (memoryProblem) throw new Error(`reconcile --registry peak RSS run: ${memoryProblem}\n${memory.result.stderr}`);
    const count = registryEntries.toLocaleString('en');
    return [
      {
        target: 'registry',
        what: `\`reconcile --registry\`, a ${count}-row registry against a journal of ${count} payments (${different} differ)`,
        floorLabel: 'read the registry and the journal once (stream, split lines)',
        floor,
        value: reconcile,
        limit: 2,
      },
      { target: 'memory', what: `peak RSS, the same \`reconcile --registry\``, floorLabel: memory.how, megabytes: memory.kilobytes / 1024, limitMb: 200 },
    ];
  },
};

// ---------------------------------------------------------------- the table

const ms = (n) => `${n.toFixed(1)} ms`;

function tableLine(row) {
  if (row.megabytes !== undefined) {
    return `| ${row.target} | ${row.what} | ${row.floorLabel} | | ${row.megabytes.toFixed(1)} MB | | < ${row.limitMb} MB | ${row.megabytes < row.limitMb ? 'pass' : '**FAIL**'} |`;
  }
  const ratio = row.value / row.floor;
  const verdict = row.limit === undefined ? '' : ratio <= row.limit ? 'pass' : '**FAIL**';
  return `| ${row.target} | ${row.what} | ${row.floorLabel} | ${ms(row.floor)} | ${ms(row.value)} | ${ratio.toFixed(2)}x | ${row.limit === undefined ? '' : `≤ ${row.limit}x`} | ${verdict} |`;
}

function report(machine, rows) {
  let free = '';
  try {
    free = execFileSync('free', ['-h'], { encoding: 'utf8' });
  } catch {
    free = `${machine.memory} total\n`;
  }
  return [
    `Node ${machine.node}, ${machine.cpus}, ${machine.memory} RAM; load average ${machine.loadBefore} before, ${machine.loadAfter} after.`,
    `Runs per comparison: start-up and completion ${runsFor(21)}, one Status, check and pay ${runsFor(15)}, batch ${runsFor(7)}, reconcile ${runsFor(7)} (after 2 warm-up rounds each; medians).`,
    '',
    '| target | agentpay | floor | floor median | agentpay median | ratio | limit | result |',
    '|---|---|---|---:|---:|---:|---:|---|',
    ...rows.map(tableLine),
    '',
    '```',
    free.trimEnd(),
    '```',
  ].join('\n');
}

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
    if (only !== undefined && !only.has(name)) continue;
    process.stderr.write(`bench: ${name}\n`);
    rows.push(...(await comparison({ env, gateway, ids })));
  }
  machine.loadAfter = load();
  process.stdout.write(`${report(machine, rows)}\n`);
} finally {
  gateway?.stop();
  slow?.stop();
  await ledgerServer?.stop();
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
