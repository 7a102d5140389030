#!/usr/bin/env node
// The speed benchmark of issue 5 (README "Performance"; not a test: timing is not a test).
// Each target is a ratio against a floor measured in the same run, never an absolute time:
// runs alternate floor and agentpay (A B B A ...) after a warm-up, so load on the machine hits
// both sides, and the table shows medians. Loopback only; every loop is bounded; stops by itself.
//
//   npm run bench                  # build, then all comparisons
//   npm run bench -- --runs 5      # fewer runs per comparison (quicker, noisier)
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runsOverride = values.runs === undefined ? undefined : Math.max(3, Number(values.runs));
const runsFor = (standard) => runsOverride ?? standard;

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin/agentpay.js');
const floors = join(root, 'scripts/bench');
const node = process.execPath;
const work = mkdtempSync(join(tmpdir(), 'agentpay-bench-'));

const firstId = 1795289214527958198n;
const batchSize = 5_000;
const memoryBatchSize = 100_000;
const journalEntries = 100_000;
const concurrency = 8;
const children = new Set();

// ---------------------------------------------------------------- running a process

/**
 * Runs a command to its end and measures wall time from spawn to exit. stdout is read from a
 * pipe (as a script reading agentpay's output would), counted and dropped.
 */
function run(command, args, { env = process.env, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let lines = 0;
    let firstLineMs;
    let head = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      if (firstLineMs === undefined) firstLineMs = Number(process.hrtime.bigint() - started) / 1e6;
      if (head.length < 2000) head += chunk.toString('utf8', 0, Math.min(chunk.length, 2000));
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    });
    child.stderr.on('data', (chunk) => {
      if (stderr.length < 4000) stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      resolve({ ms, code, signal, lines, firstLineMs, head, stderr });
    });
  });
}

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Alternates the floor and each candidate, runs` times after `warmUp` rounds, and checks
 * every run with `check` (a wrong answer is not a fast one).
 */
async function compare({ runs, warmUp = 2, floor, candidates, before, check }) {
  const sides = [floor, ...candidates];
  const times = sides.map(() => []);
  for (let round = 0; round < warmUp + runs; round++) {
    const order = round % 2 === 0 ? sides.map((_, i) => i) : sides.map((_, i) => i).reverse();
    for (const index of order) {
      await before?.(sides[index]);
      const result = await run(...sides[index].command);
      const problem = check(sides[index], result);
      if (problem) throw new Error(`${sides[index].label}: ${problem}\n${result.stderr}`);
      if (round >= warmUp) times[index].push(result.ms);
    }
  }
  return times.map(median);
}

// ---------------------------------------------------------------- the gateway and the inputs

async function startGateway() {
  const child = spawn(node, [join(floors, 'sandbox.mjs'), firstId.toString(), String(memoryBatchSize)], { stdio: ['pipe', 'pipe', 'inherit'] });
  children.add(child);
  const line = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`the bench sandbox exited (${code}) before it was ready`)));
  });
  return { baseUrl: JSON.parse(line).baseUrl, stop: () => child.stdin.end() };
}

function writeIds(path, count) {
  const stream = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += `${firstId + BigInt(i)}\n`;
    if (chunk.length > 1 << 16) {
      stream.write(chunk);
      chunk = '';
    }
  }
  stream.end(chunk);
  return new Promise((resolve) => stream.on('finish', resolve));
}

/**
 * A journal of `entries` transactions for this gateway and agent, as agentpay writes it: an
 * intent and a final outcome for most; every 5,000th is still open (half of them known to
 * the sandbox, so they settle as success; half never arrived, old enough to close as failed),
 * and every 10,000th has a lost answer (an "unknown" outcome) on record.
 */
function writeJournal(path, gateway, entries) {
  const stream = createWriteStream(path);
  let chunk = '';
  let open = 0;
  const view = (transactionId, i, state) => ({
    transactionId, requestId: (9007199254740993n + BigInt(i)).toString(), type: 'Payment', status: state === 'success' ? '10' : null, state,
    message: state === 'success' ? 'Успех' : 'the connection was closed before the answer arrived', service: '201', account: `bench-${i}`,
    amount: '100.00', currency: 'KZT', exchangeRate: state === 'success' ? '1' : null, serviceCurrency: state === 'success' ? 'KZT' : null,
  });
  for (let i = 0; i < entries; i++) {
    const neverArrived = i % 5000 === 2500;
    const transactionId = (firstId + BigInt(neverArrived ? memoryBatchSize + i : i)).toString();
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const owner = { transactionId, gateway, agentId: '1001' };
    chunk += `${JSON.stringify({ kind: 'intent', ...owner, service: '201', account: `bench-${i}`, amount: '100.00', currency: 'KZT', invoiceId: null, at })}\n`;
    if (i % 10_000 === 0) chunk += `${JSON.stringify({ kind: 'outcome', ...owner, at, source: 'payment', view: view(transactionId, i, 'unknown') })}\n`;
    if (i % 5000 === 0 || neverArrived) open++;
    else chunk += `${JSON.stringify({ kind: 'outcome', ...owner, at, source: 'payment', view: view(transactionId, i, 'success') })}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  stream.end(chunk);
  return new Promise((resolve) => stream.on('finish', () => resolve(open)));
}

// ---------------------------------------------------------------- peak memory

async function peakRss(args, env) {
  const output = join(work, 'time.txt');
  if (existsSync('/usr/bin/time')) {
    const result = await run('/usr/bin/time', ['-f', '%M', '-o', output, node, bin, ...args], { env, timeoutMs: 600_000 });
    return { result, kilobytes: Number(readFileSync(output, 'utf8').trim().split('\n').at(-1)), how: '/usr/bin/time' };
  }
  // Without GNU time: the child reports its own getrusage() peak as it exits.
  const result = await run(node, ['--import', join(floors, 'max-rss.mjs'), bin, ...args], { env: { ...env, AGENTPAY_BENCH_RSS_FILE: output }, timeoutMs: 600_000 });
  return { result, kilobytes: Number(readFileSync(output, 'utf8').trim()), how: 'process.resourceUsage().maxRSS' };
}

// ---------------------------------------------------------------- the comparisons

const machine = {
  node: process.version,
  cpus: `${availableParallelism()} × ${cpus()[0]?.model ?? 'unknown'}`,
  memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
  loadBefore: loadavg().map((n) => n.toFixed(2)).join(' '),
};

let gateway;
try {
  process.stderr.write(`bench: preparing inputs in ${work}\n`);
  gateway = await startGateway();
  const ids = join(work, 'ids-5000.txt');
  const manyIds = join(work, 'ids-100000.txt');
  const journal = join(work, 'journal.jsonl');
  const journalCopy = join(work, 'journal-run.jsonl');
  await writeIds(ids, batchSize);
  await writeIds(manyIds, memoryBatchSize);
  const openEntries = await writeJournal(journal, gateway.baseUrl, journalEntries);
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
  const ok = (expectLines) => (_side, result) =>
    result.code !== 0 ? `exit ${result.code ?? result.signal}` : expectLines !== undefined && result.lines !== expectLines ? `${result.lines} lines, not ${expectLines}` : undefined;

  process.stderr.write('bench: 1. start-up\n');
  {
    const [floor, version, help] = await compare({
      runs: runsFor(21),
      floor: { label: 'node -e 0', command: [node, ['-e', '0'], { env }] },
      candidates: [
        { label: '--version', command: [node, [bin, '--version'], { env }] },
        { label: '--help', command: [node, [bin, '--help'], { env }] },
      ],
      check: (side, result) => (side.label === 'node -e 0' ? ok()(side, result) : ok(side.label === '--version' ? 1 : undefined)(side, result)),
    });
    rows.push({ target: '1', what: '`agentpay --version`', floorLabel: '`node -e 0`', floor, value: version, limit: 1.3 });
    rows.push({ target: '1', what: '`agentpay --help`', floorLabel: '`node -e 0`', floor, value: help, limit: 1.3 });
  }

  process.stderr.write('bench: 2. one Status call\n');
  {
    const id = firstId.toString();
    const [floor, status, depsOnly] = await compare({
      runs: runsFor(15),
      floor: { label: 'node:http', command: [node, [join(floors, 'status-one.mjs'), gateway.baseUrl, id], { env }] },
      candidates: [
        { label: 'agentpay', command: [node, [bin, 'status', id, '--json'], { env }] },
        { label: 'deps only', command: [node, [join(floors, 'deps-only.mjs'), gateway.baseUrl, id], { env }] },
      ],
      check: (side, result) => ok(1)(side, result) ?? (result.head.includes('"status":"10"') ? undefined : `unexpected answer ${result.head}`),
    });
    rows.push({ target: '2', what: '`agentpay status <id> --json`', floorLabel: 'bare `node:http` POST', floor, value: status, limit: 1.5 });
    rows.push({ target: '(2)', what: 'reference, not agentpay: commander + undici + lossless-json alone, same POST', floorLabel: 'bare `node:http` POST', floor, value: depsOnly });
  }

  process.stderr.write(`bench: 3. ${batchSize} Status look-ups, concurrency ${concurrency}\n`);
  {
    const [floor, status] = await compare({
      runs: runsFor(7),
      floor: { label: 'node:http', command: [node, [join(floors, 'status-batch.mjs'), gateway.baseUrl, ids, String(concurrency)], { env }] },
      candidates: [{ label: 'agentpay', command: [node, [bin, 'status', '--from-file', ids, '--concurrency', String(concurrency), '--json'], { env }] }],
      check: ok(batchSize),
    });
    rows.push({ target: '3', what: `\`status --from-file\` ${batchSize.toLocaleString('en')} ids \`--concurrency ${concurrency} --json\``, floorLabel: `bare \`node:http\` keep-alive, ${concurrency} at a time`, floor, value: status, limit: 1.2 });
  }

  process.stderr.write(`bench: 5. reconcile over a journal of ${journalEntries} transactions (${openEntries} open)\n`);
  {
    const [floor, reconcile] = await compare({
      runs: runsFor(7),
      floor: { label: 'read once', command: [node, [join(floors, 'read-journal.mjs'), journal], { env }] },
      candidates: [{ label: 'agentpay', command: [node, [bin, 'reconcile', '--json'], { env: { ...env, AGENTPAY_JOURNAL: journalCopy } }] }],
      // Each reconcile starts from the same journal: the last run's outcomes are not in it.
      before: (side) => side.label === 'agentpay' && copyFileSync(journal, journalCopy),
      check: (side, result) => ok(side.label === 'agentpay' ? openEntries : 1)(side, result),
    });
    rows.push({ target: '5', what: `\`reconcile\`, journal of ${journalEntries.toLocaleString('en')} transactions (${openEntries} open)`, floorLabel: 'read the file once (stream, split lines)', floor, value: reconcile, limit: 2 });
  }

  process.stderr.write(`bench: 4. peak RSS, ${memoryBatchSize} Status look-ups\n`);
  const memory = await peakRss(['status', '--from-file', manyIds, '--concurrency', String(concurrency), '--json'], env);
  const memoryProblem = ok(memoryBatchSize)(undefined, memory.result);
  if (memoryProblem) throw new Error(`peak RSS run: ${memoryProblem}\n${memory.result.stderr}`);
  const small = await peakRss(['status', '--from-file', ids, '--concurrency', String(concurrency), '--json'], env);

  // ---------------------------------------------------------------- the table
  machine.loadAfter = loadavg().map((n) => n.toFixed(2)).join(' ');
  const ms = (n) => `${n.toFixed(1)} ms`;
  const lines = [
    '| target | agentpay | floor | floor median | agentpay median | ratio | limit | result |',
    '|---|---|---|---:|---:|---:|---:|---|',
    ...rows.map((row) => {
      const ratio = row.value / row.floor;
      const verdict = row.limit === undefined ? '' : ratio <= row.limit ? 'pass' : '**FAIL**';
      return `| ${row.target} | ${row.what} | ${row.floorLabel} | ${ms(row.floor)} | ${ms(row.value)} | ${ratio.toFixed(2)}x | ${row.limit === undefined ? '' : `≤ ${row.limit}x`} | ${verdict} |`;
    }),
    `| 4 | peak RSS, \`status --from-file\` ${memoryBatchSize.toLocaleString('en')} ids (${batchSize.toLocaleString('en')} ids: ${(small.kilobytes / 1024).toFixed(0)} MB) | ${memory.how} | | ${(memory.kilobytes / 1024).toFixed(1)} MB | | < 120 MB | ${memory.kilobytes / 1024 < 120 ? 'pass' : '**FAIL**'} |`,
  ];
  let free = '';
  try {
    free = execFileSync('free', ['-h'], { encoding: 'utf8' });
  } catch {
    free = `${machine.memory} total\n`;
  }
  const report = [
    `Node ${machine.node}, ${machine.cpus}, ${machine.memory} RAM; load average ${machine.loadBefore} before, ${machine.loadAfter} after.`,
    `Runs per comparison: start-up ${runsFor(21)}, one Status ${runsFor(15)}, batch ${runsFor(7)}, reconcile ${runsFor(7)} (after 2 warm-up rounds each; medians).`,
    '',
    ...lines,
    '',
    '```',
    free.trimEnd(),
    '```',
  ].join('\n');
  process.stdout.write(`${report}\n`);
} finally {
  gateway?.stop();
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}
