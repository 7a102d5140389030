// The bench's inputs (scripts/bench.mjs): its gateway in a process of its own, files of ids,
// SQLite ledgers loaded from journals as an earlier agentpay wrote them, and the state of `--sandbox`.
import { spawn } from 'node:child_process';
import { copyFileSync, createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { children, run } from './measure.mjs';

/** The sandbox of scripts/bench/sandbox.mjs, its store holding `count` paid transactions from `firstId`, answering after `latencyMs`. */
export async function startGateway({ node, floors }, firstId, count, latencyMs = 0) {
  const child = spawn(node, [join(floors, 'sandbox.mjs'), firstId.toString(), String(count), String(latencyMs)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
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

/** `count` TransactionIDs from `firstId`, one a line. */
export function writeIds(path, firstId, count) {
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

/** A `--sandbox` state file holding `count` paid transactions from `firstId` (the store as the CLI runs it, dist/). */
export async function writeSandboxState(path, firstId, count) {
  const { TransactionStore, seedPaidTransaction } = await import('../../dist/sandbox/state.js');
  const store = new TransactionStore(path);
  for (let i = 0; i < count; i++) seedPaidTransaction(store, '1001', (firstId + BigInt(i)).toString(), `bench-${i}`);
  store.close();
}

/**
 * A SQLite ledger at `path` holding the journal `write(journal)` writes, loaded once by
 * `agentpay ledger import`; resolves to what `write` does. Built in a tmpfs when there is one
 * (the import's fsyncs are not what the bench measures), then copied beside the other inputs.
 */
export async function importedLedger({ node, bin }, env, path, write) {
  const scratch = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : dirname(path), 'agentpay-bench-ledger-'));
  try {
    const journal = join(scratch, 'journal.jsonl');
    const written = await write(journal);
    const built = join(scratch, 'ledger.sqlite');
    const imported = await run(node, [bin, 'ledger', 'import', journal], {
      env: { ...env, AGENTPAY_LEDGER: built },
      timeoutMs: 3_600_000,
    });
    if (imported.code !== 0)
      throw new Error(`ledger import: exit ${imported.code ?? imported.signal}\n${imported.stderr}`);
    copyLedger(built, path);
    return written;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A copy of a closed SQLite ledger (its -wal too, if one was left); a stale -wal or -shm at `to` goes first. */
export function copyLedger(from, to) {
  for (const suffix of ['-wal', '-shm']) rmSync(`${to}${suffix}`, { force: true });
  copyFileSync(from, to);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
}

/**
 * A journal of `entries` transactions for this gateway and agent, as an earlier agentpay wrote
 * it: an intent and a final outcome for most; every 5,000th is still open (half of them known to
 * the sandbox, so they settle as success; half never arrived, old enough to close as failed),
 * and every 10,000th has a lost answer (an "unknown" outcome) on record.
 */
export function writeJournal(path, gateway, entries, { firstId, unknownToGateway }) {
  const stream = createWriteStream(path);
  let chunk = '';
  let open = 0;
  const view = (transactionId, i, state) => ({
    transactionId,
    requestId: (9007199254740993n + BigInt(i)).toString(),
    type: 'Payment',
    status: state === 'success' ? '10' : null,
    state,
    message: state === 'success' ? 'Успех' : 'the connection was closed before the answer arrived',
    service: '201',
    account: `bench-${i}`,
    amount: '100.00',
    currency: 'KZT',
    exchangeRate: state === 'success' ? '1' : null,
    serviceCurrency: state === 'success' ? 'KZT' : null,
  });
  for (let i = 0; i < entries; i++) {
    const neverArrived = i % 5000 === 2500;
    const transactionId = (firstId + BigInt(neverArrived ? unknownToGateway + i : i)).toString();
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const owner = { transactionId, gateway, agentId: '1001' };
    chunk += `${JSON.stringify({ kind: 'intent', ...owner, service: '201', account: `bench-${i}`, amount: '100.00', currency: 'KZT', invoiceId: null, at })}\n`;
    if (i % 10_000 === 0)
      chunk += `${JSON.stringify({ kind: 'outcome', ...owner, at, source: 'payment', view: view(transactionId, i, 'unknown') })}\n`;
    if (i % 5000 === 0 || neverArrived) open++;
    else
      chunk += `${JSON.stringify({ kind: 'outcome', ...owner, at, source: 'payment', view: view(transactionId, i, 'success') })}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  stream.end(chunk);
  return new Promise((resolve) => stream.on('finish', () => resolve(open)));
}

/** A journal of `count` intents from `firstId` for this gateway and agent 1001, none answered yet: all open. */
export function writeOpenJournal(path, gateway, count, firstId) {
  const stream = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < count; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const intent = {
      kind: 'intent',
      transactionId: (firstId + BigInt(i)).toString(),
      gateway,
      agentId: '1001',
      service: '201',
      account: `bench-${i}`,
      amount: '100.00',
      currency: 'KZT',
      invoiceId: null,
      at,
    };
    chunk += `${JSON.stringify(intent)}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  stream.end(chunk);
  return new Promise((resolve) => stream.on('finish', resolve));
}

/**
 * The provider's registry of the journal writeJournal writes (same `entries`, `firstId` and
 * `unknownToGateway`), in the built-in tsv layout with its Total line: every transaction listed
 * as paid, dated by its intent's UTC day (run agentpay with TZ=UTC). The open ones are then
 * "different" (the ledger does not know they were paid): resolves to their count.
 */
export function writeRegistry(path, entries, { firstId, unknownToGateway }) {
  const stream = createWriteStream(path);
  let chunk = '';
  let open = 0;
  for (let i = 0; i < entries; i++) {
    const neverArrived = i % 5000 === 2500;
    if (i % 5000 === 0 || neverArrived) open++;
    const transactionId = (firstId + BigInt(neverArrived ? unknownToGateway + i : i)).toString();
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    chunk += `${transactionId}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\tbench-${i}\t100.00\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  stream.end(`${chunk}Total: ${entries} ${entries * 100}.00\n`);
  return new Promise((resolve) => stream.on('finish', () => resolve(open)));
}
