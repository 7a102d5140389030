import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lineOf } from '../../src/ledger/record-format.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { isolatedEnv } from '../helpers/cli.js';
import { measuredRun } from '../helpers/measured-run.js';

/**
 * reconcile --registry holds a registry of 1,000,000 rows in bounded memory (peak RSS under
 * 200 MB, issue 25's bound; 140-170 MB in runs, as the collector's young generation varies): the rows in a compact index (registry/registry-index.ts), not a string a row. The
 * ledger is empty, so every row is listed "only in the registry", each read back from the index,
 * and the peak is the registry's own; held as strings, the same run peaked near 280 MB.
 */
const rows = 1_000_000;
const firstId = 1795289214527958198n;

async function writeRegistry(path: string): Promise<void> {
  const stream = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    chunk += `${firstId + BigInt(i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\tсчёт-${i}\t${i % 100}.${String(i % 97).padStart(2, '0')}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  await new Promise<void>((resolve) => stream.end(chunk, () => resolve()));
}

describe('reconcile --registry at scale', () => {
  it(`holds a ${rows.toLocaleString('en')}-row registry in under 200 MB, every row listed back exactly`, async () => {
    const env: Record<string, string> = { ...isolatedEnv(), TZ: 'UTC' };
    const [registry, journal] = [join(env.HOME!, 'registry.tsv'), playJournalOf(env)];
    await writeRegistry(registry);
    writeFileSync(journal, '');
    const { code, lines, first, last, stderr, peakMb } = await measuredRun(env, [
      '--sandbox',
      '--json',
      'reconcile',
      '--registry',
      registry,
    ]);
    expect(code, stderr).toBe(1);
    expect(lines).toBe(rows);
    expect(first).toContain(
      `"transactionId":"${firstId}","date":"2026-01-01","account":"счёт-0","registryAmount":"0.00"`,
    );
    const lastId = firstId + BigInt(rows - 1);
    expect(last).toContain(
      `"transactionId":"${lastId}","date":"2026-01-12","account":"счёт-${rows - 1}","registryAmount":"99.${String((rows - 1) % 97).padStart(2, '0')}"`,
    );
    expect(peakMb()).toBeLessThan(200);
  }, 90_000);
});

/**
 * reconcile --registry of a registry against a journal holding the same payments: the journal's
 * side (ledger/file/payments.ts) holds the span's payments in one byte array (held-payments.ts), not
 * a string a payment, until the registry has seen them all. The lists must be exactly what they
 * were, the ledger's in the order of first intent (a retried payment keeps its first place).
 * 200,000 payments (the bench's registry row) run always; 1,000,000 (issue 25's case) only with
 * AGENTPAY_TEST_LARGE=1, since it writes a 600 MB journal and takes about a minute. Each bound
 * is one that a string a payment fails by far; the large one is issue 25's 200 MB less a margin
 * for the collector's young generation, whose size varies from run to run. Read 64 KiB at a time
 * (text-lines.ts longPassChunkBytes), the large case grew that generation to 64 MB on Node 24
 * and peaked at 205-212 MB there (165-194 MB on Node 20); 16 KiB at a time, at 171-175 MB (Node
 * 20: 152-165 MB).
 */
const owner = { gateway: 'sandbox', agentId: '1001' };
/** The journal --sandbox reads, whatever the ledger setting (docs/sandbox.md): where the payments are written. */
function playJournalOf(env: Record<string, string>): string {
  const directory = join(env.XDG_STATE_HOME!, 'agentpay');
  mkdirSync(directory, { recursive: true });
  return join(directory, 'sandbox-journal.jsonl');
}
const startMs = Date.UTC(2026, 0, 1);
const idOf = (i: number) => `${firstId + BigInt(i)}`;
const atOf = (i: number) => new Date(startMs + i * 1000).toISOString();
const accountOf = (i: number) => `счёт-${i}`;
/**
 * What becomes of payment i: mostly agreed; every 1,000th is open, one missing from the registry,
 * one listed at another amount, and one failed, then paid by a new attempt 1,100 payments later
 * (and listed at another amount, so that where it is listed shows its place).
 */
const kinds = new Map<number, 'open' | 'only-in-ledger' | 'other-amount' | 'retried'>([
  [0, 'open'],
  [500, 'only-in-ledger'],
  [250, 'other-amount'],
  [750, 'retried'],
]);
const kindOf = (i: number) => kinds.get(i % 1000) ?? 'agreed';
const retryAfter = 1100;

function paymentLines(i: number, at: string, states: readonly ('success' | 'failed' | 'unknown')[]): string {
  const transactionId = idOf(i);
  let lines = `${lineOf({ kind: 'intent', ...owner, transactionId, service: '201', account: accountOf(i), amount: '100.00', currency: 'KZT', invoiceId: null, at })}\n`;
  for (const state of states) {
    const view = { ...unknownView({ transactionId }, 'Status', state), state };
    lines += `${lineOf({ kind: 'outcome', ...owner, transactionId, at, source: 'reconcile', view })}\n`;
  }
  return lines;
}

function journalLines(i: number): string {
  const kind = kindOf(i);
  const lines = paymentLines(i, atOf(i), kind === 'open' ? ['unknown'] : kind === 'retried' ? ['failed'] : ['success']);
  return kindOf(i - retryAfter) === 'retried' ? lines + paymentLines(i - retryAfter, atOf(i), ['success']) : lines;
}

async function writeSamePayments(registry: string, journal: string, payments: number): Promise<void> {
  const [registryStream, journalStream] = [createWriteStream(registry), createWriteStream(journal)];
  let [rows, lines] = ['', ''];
  for (let i = 0; i < payments; i++) {
    lines += journalLines(i);
    const [kind, at] = [kindOf(i), atOf(i)];
    const amount = kind === 'other-amount' || kind === 'retried' ? '99.90' : '100.00';
    if (kind !== 'only-in-ledger')
      rows += `${idOf(i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\t${accountOf(i)}\t${amount}\n`;
    // Every 2,000th row is the provider's alone.
    if (i % 2000 === 1999)
      rows += `${idOf(payments + i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\t${accountOf(payments + i)}\t7.00\n`;
    if (lines.length > 1 << 20) {
      journalStream.write(lines);
      lines = '';
    }
    if (rows.length > 1 << 20) {
      registryStream.write(rows);
      rows = '';
    }
  }
  await Promise.all([
    new Promise<void>((resolve) => registryStream.end(rows, () => resolve())),
    new Promise<void>((resolve) => journalStream.end(lines, () => resolve())),
  ]);
}

/** The lists reconcile --registry must give, in their order. */
function expectedFindings(payments: number): string {
  const [only, onlyInLedger, different]: [string[], string[], string[]] = [[], [], []];
  for (let i = 0; i < payments; i++) {
    if (i % 2000 === 1999) {
      const j = payments + i;
      only.push(finding('only-in-registry', idOf(j), atOf(i).slice(0, 10), accountOf(j), '7.00', null, 'paid', null));
    }
    const [kind, id, date, account] = [kindOf(i), idOf(i), atOf(i).slice(0, 10), accountOf(i)];
    if (kind === 'open') different.push(finding('different', id, date, account, '100.00', '100.00', 'paid', 'unknown'));
    if (kind === 'other-amount')
      different.push(finding('different', id, date, account, '99.90', '100.00', 'paid', 'success'));
    if (kind === 'retried') {
      const state = i + retryAfter < payments ? 'success' : 'failed';
      different.push(finding('different', id, date, account, '99.90', '100.00', 'paid', state));
    }
    if (kind === 'only-in-ledger')
      onlyInLedger.push(finding('only-in-ledger', id, date, account, null, '100.00', null, 'success'));
  }
  return [...only, ...onlyInLedger, ...different].join('');
}

function finding(
  list: string,
  transactionId: string,
  date: string,
  account: string,
  ...rest: (string | null)[]
): string {
  const [registryAmount, ledgerAmount, registryState, ledgerState] = rest;
  return `${JSON.stringify({ list, transactionId, date, account, registryAmount, ledgerAmount, registryState, ledgerState })}\n`;
}

async function reconcileSamePayments(
  payments: number,
): Promise<{ code: unknown; stdout: string; stderr: string; peakMb: number }> {
  const env: Record<string, string> = { ...isolatedEnv(), TZ: 'UTC' };
  const [registry, journal] = [join(env.HOME!, 'registry.tsv'), playJournalOf(env)];
  await writeSamePayments(registry, journal, payments);
  const { code, stdout, stderr, peakMb } = await measuredRun(
    env,
    ['--sandbox', '--json', 'reconcile', '--registry', registry],
    { wholeStdout: true },
  );
  return { code, stdout, stderr, peakMb: peakMb() };
}

describe('reconcile --registry against a journal of the same payments', () => {
  for (const [payments, boundMb] of [
    // 115-118 MB in most runs; 150-152 MB in some on Node 24, when V8 grows its young generation
    // mid-run (seen in 2 of 7 runs both before and after issue 27's registry dates). 140 failed CI.
    [200_000, 165],
    [1_000_000, 185],
  ] as const) {
    const large = payments > 200_000;
    it.skipIf(large && process.env.AGENTPAY_TEST_LARGE !== '1')(
      `${payments.toLocaleString('en')} payments: the lists exactly, in order of first intent, under ${boundMb} MB`,
      async () => {
        const run = await reconcileSamePayments(payments);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).toBe(expectedFindings(payments));
        const agreed = payments - 4 * (payments / 1000);
        expect(run.stderr).toContain(`${agreed} agree`);
        expect(run.peakMb, 'peak RSS (MB)').toBeLessThan(boundMb);
      },
      large ? 300_000 : 60_000,
    );
  }
});
