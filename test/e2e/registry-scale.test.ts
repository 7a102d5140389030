import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../src/ledger/records.js';
import { unknownView } from '../../src/protocol/transaction-view.js';
import { isolatedEnv } from '../helpers/cli.js';
import { sandboxLedger, seedLedger } from '../helpers/ledger-file.js';
import { measuredRun } from '../helpers/measured-run.js';

/** reconcile --registry of a long registry against an empty ledger: every row "only in the registry", in its
 * order, over a dozen days; 50,000 rows are a dozen of compare.ts's transactions (1,000,000 with
 * AGENTPAY_TEST_LARGE=1). Memory is the bench's (scripts/bench.mjs, the registry row). */
const rows = process.env.AGENTPAY_TEST_LARGE === '1' ? 1_000_000 : 50_000;
/** Rows this far apart span a dozen days whatever their count. */
const stepMs = Math.round((12 * 86_400_000) / rows);
const rowAt = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * stepMs).toISOString();
const firstId = 1795289214527958198n;

async function writeRegistry(path: string): Promise<void> {
  const stream = createWriteStream(path);
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const at = rowAt(i);
    chunk += `${firstId + BigInt(i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\tсчёт-${i}\t${i % 100}.${String(i % 97).padStart(2, '0')}\n`;
    if (chunk.length > 1 << 20) {
      stream.write(chunk);
      chunk = '';
    }
  }
  await new Promise<void>((resolve) => stream.end(chunk, () => resolve()));
}

describe('reconcile --registry at scale', () => {
  it(`lists every row of a ${rows.toLocaleString('en')}-row registry back exactly`, async () => {
    const env: Record<string, string> = { ...isolatedEnv(), TZ: 'UTC' };
    const registry = join(env.HOME!, 'registry.tsv');
    await writeRegistry(registry);
    const { code, lines, first, last, stderr } = await measuredRun(env, [
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
      `"transactionId":"${lastId}","date":"${rowAt(rows - 1).slice(0, 10)}","account":"счёт-${rows - 1}","registryAmount":"99.${String((rows - 1) % 97).padStart(2, '0')}"`,
    );
  }, 90_000);
});

/** reconcile --registry against a ledger of the same payments (--sandbox's): the lists exactly, the ledger's in
 * order of first intent (a retried payment keeps its place). 5,000 payments (5 of each kind, past one 4,096-row
 * transaction); 1,000,000 with AGENTPAY_TEST_LARGE=1, as seeding takes minutes (the bench measures the scale). */
const owner = { gateway: 'sandbox', agentId: '1001' };
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

function paymentRecords(i: number, at: string, states: readonly ('success' | 'failed' | 'unknown')[]): JournalRecord[] {
  const transactionId = idOf(i);
  const records: JournalRecord[] = [
    {
      kind: 'intent',
      ...owner,
      transactionId,
      service: '201',
      account: accountOf(i),
      amount: '100.00',
      currency: 'KZT',
      invoiceId: null,
      at,
    },
  ];
  for (const state of states) {
    const view = { ...unknownView({ transactionId }, 'Status', state), state };
    records.push({ kind: 'outcome', ...owner, transactionId, at, source: 'reconcile', view });
  }
  return records;
}

/** Payment i's records, and the new attempt of the one retried 1,100 payments before, if any. */
function recordsAt(i: number): JournalRecord[] {
  const kind = kindOf(i);
  const records = paymentRecords(
    i,
    atOf(i),
    kind === 'open' ? ['unknown'] : kind === 'retried' ? ['failed'] : ['success'],
  );
  if (kindOf(i - retryAfter) === 'retried') records.push(...paymentRecords(i - retryAfter, atOf(i), ['success']));
  return records;
}

/** The registry written, and the ledger seeded (a few thousand payments at a time, as `ledger import` loads them). */
async function writeSamePayments(registry: string, ledger: string, payments: number): Promise<void> {
  const registryStream = createWriteStream(registry);
  let rows = '';
  let records: JournalRecord[] = [];
  for (let i = 0; i < payments; i++) {
    records.push(...recordsAt(i));
    const [kind, at] = [kindOf(i), atOf(i)];
    const amount = kind === 'other-amount' || kind === 'retried' ? '99.90' : '100.00';
    if (kind !== 'only-in-ledger')
      rows += `${idOf(i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\t${accountOf(i)}\t${amount}\n`;
    // Every 2,000th row is the provider's alone.
    if (i % 2000 === 1999)
      rows += `${idOf(payments + i)}\t${at.slice(0, 10)}\t${at.slice(11, 19)}\t${accountOf(payments + i)}\t7.00\n`;
    if (records.length > 20_000) {
      await seedLedger(ledger, records);
      records = [];
    }
    if (rows.length > 1 << 20) {
      registryStream.write(rows);
      rows = '';
    }
  }
  await seedLedger(ledger, records);
  await new Promise<void>((resolve) => registryStream.end(rows, () => resolve()));
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

async function reconcileSamePayments(payments: number): Promise<{ code: unknown; stdout: string; stderr: string }> {
  const env: Record<string, string> = { ...isolatedEnv(), TZ: 'UTC' };
  const registry = join(env.HOME!, 'registry.tsv');
  await writeSamePayments(registry, sandboxLedger(env), payments);
  const { code, stdout, stderr } = await measuredRun(
    env,
    ['--sandbox', '--json', 'reconcile', '--registry', registry],
    {
      wholeStdout: true,
    },
  );
  return { code, stdout, stderr };
}

describe('reconcile --registry against a ledger of the same payments', () => {
  for (const payments of [5_000, 1_000_000]) {
    const large = payments > 5_000;
    it.skipIf(large && process.env.AGENTPAY_TEST_LARGE !== '1')(
      `${payments.toLocaleString('en')} payments: the lists exactly, in order of first intent`,
      async () => {
        const run = await reconcileSamePayments(payments);
        expect(run.code, run.stderr).toBe(1);
        expect(run.stdout).toBe(expectedFindings(payments));
        const agreed = payments - 4 * (payments / 1000);
        expect(run.stderr).toContain(`${agreed} agree`);
      },
      large ? 900_000 : 120_000,
    );
  }
});
