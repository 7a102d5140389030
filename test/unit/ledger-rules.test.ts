import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JournalEntry, LedgerFilter } from '../../src/ledger/ledger.js';
import type { IntentRecord, JournalRecord, OutcomeRecord } from '../../src/ledger/records.js';
import type { SqliteLedger } from '../../src/ledger/sqlite/sqlite-ledger.js';
import { gathered } from '../helpers/gathered.js';
import { intent, outcome, owner } from '../helpers/journal-lines.js';
import { opened, seedLedger } from '../helpers/ledger-file.js';

/**
 * The ledger's rules for a transaction's latest word and for what is open (ledger/records.ts
 * replacesOutcome, attemptReopens), as the SQLite ledger applies them to records loaded as
 * `ledger import` loads them: the open set reconcile claims, history's entries, the replay guard.
 */

const ledgerPath = () => join(mkdtempSync(join(tmpdir(), 'agentpay-ledger-rules-')), 'nested', 'ledger.sqlite');

/** The ledger at a new path holding `records` (none: never made), opened for `work`, closed after. */
async function withLedger<T>(records: readonly JournalRecord[], work: (ledger: SqliteLedger) => Promise<T>) {
  const path = ledgerPath();
  if (records.length > 0) await seedLedger(path, records);
  return opened(path, work);
}

/** The open transactions of `owner`, as reconcile claims them (each batch let go at once). */
async function openOf(ledger: SqliteLedger, filter: LedgerFilter = {}): Promise<JournalEntry[]> {
  const open: JournalEntry[] = [];
  for await (const batch of ledger.claimOpen(owner, filter)) {
    open.push(...batch.entries);
    await batch.done();
  }
  return open;
}

const states = (entries: readonly JournalEntry[]) =>
  entries.map((entry) => [entry.intent.transactionId, entry.outcome?.view.state]);
const other = <T extends IntentRecord | OutcomeRecord>(record: T): T => ({ ...record, gateway: 'https://gw.example' });
const mixedGateways = [intent('1'), outcome('1', 'success'), other(intent('2')), intent('3'), outcome('3', 'failed')];
const allOf = async (ledger: SqliteLedger) => states(await gathered(ledger.entries({})));

describe('the ledger rules, on the SQLite ledger', () => {
  it('keeps open only the transactions without a final outcome', async () => {
    const records = [
      intent('1'),
      intent('2'),
      outcome('1', 'unknown'),
      intent('3'),
      outcome('2', 'success'),
      outcome('3', 'pending'),
    ];
    await withLedger(records, async (ledger) => {
      expect(states(await openOf(ledger))).toEqual([
        ['1', 'unknown'],
        ['3', 'pending'],
      ]);
      expect(await ledger.openOwners({})).toEqual([{ ...owner, count: 2 }]);
    });
  });

  it('never lets a late non-final outcome overwrite a final one', async () => {
    await withLedger([intent('7'), outcome('7', 'success'), outcome('7', 'unknown')], async (ledger) => {
      expect(await allOf(ledger)).toEqual([['7', 'success']]);
      expect(await openOf(ledger)).toEqual([]);
      expect(await ledger.openOwners({})).toEqual([]);
    });
  });

  it('a later intent for a closed transaction (the safe retry) is open until its own outcome', async () => {
    // 8: the first attempt was not sent (failed), the retry's answer was lost.
    // 9: the retry of a paid payment, killed before its answer: open, so reconcile asks; its success stands.
    const records = [
      intent('8'),
      outcome('8', 'failed'),
      intent('8', '2026-11-21T10:05:00.000Z'),
      outcome('8', 'unknown'),
      intent('9'),
      outcome('9', 'success'),
      intent('9', '2026-11-21T10:05:00.000Z'),
    ];
    await withLedger(records, async (ledger) => {
      expect(states(await openOf(ledger))).toEqual([
        ['8', 'unknown'],
        ['9', undefined],
      ]);
      expect(await allOf(ledger)).toEqual([
        ['8', 'unknown'],
        ['9', 'success'],
      ]);
      // Once the retry of 8 is answered, it closes.
      await ledger.recordOutcome({ ...outcome('8', 'success'), at: '2026-11-21T10:06:00.000Z' });
      expect(states(await openOf(ledger))).toEqual([['9', undefined]]);
    });
  });

  it('a success stands: a "not sent" or "never made" written after it (a retry elsewhere, a reconcile that asked early) does not replace it', async () => {
    const records = [
      intent('10'),
      outcome('10', 'success'),
      outcome('10', 'failed'),
      intent('11'),
      outcome('11', 'failed'),
      outcome('11', 'success'),
    ];
    await withLedger(records, async (ledger) => {
      expect(await allOf(ledger)).toEqual([
        ['10', 'success'],
        ['11', 'success'],
      ]);
      expect((await ledger.transaction('10', owner)).map((entry) => entry.outcome?.view.state)).toEqual(['success']);
    });
  });

  it('filters by --since on the intent time', async () => {
    const records = [intent('1', '2026-11-01T00:00:00.000Z'), intent('2', '2026-11-20T00:00:00.000Z')];
    await withLedger(records, async (ledger) => {
      const since = new Date('2026-11-10T00:00:00Z');
      expect((await gathered(ledger.entries({ since }))).map((e) => e.intent.transactionId)).toEqual(['2']);
      expect(states(await openOf(ledger, { since }))).toEqual([['2', undefined]]);
      expect(await ledger.openOwners({ since })).toEqual([{ ...owner, count: 1 }]);
    });
  });

  it('filters by latest state and gateway for history, and names the gateways of all', async () => {
    await withLedger(mixedGateways, async (ledger) => {
      const unknown = await ledger.entries({ state: 'unknown' });
      expect(unknown.allGateways).toEqual(['sandbox', 'https://gw.example']);
      expect((await gathered(unknown)).map((e) => e.intent.transactionId)).toEqual(['2']);
      const sandbox = await ledger.entries({ gateway: 'sandbox' });
      expect(sandbox.gateways).toEqual(['sandbox']);
      expect(states(await gathered(sandbox))).toEqual([
        ['1', 'success'],
        ['3', 'failed'],
      ]);
      const none = await ledger.entries({ gateway: 'sandbox', state: 'pending' });
      expect(await gathered(none)).toEqual([]);
    });
  });

  // The gateways decide history's Gateway column before its first row (ledger.ts LedgerHistory).
  it('names only the gateways of the rows a --state filter shows', async () => {
    await withLedger(mixedGateways, async (ledger) => {
      expect((await ledger.entries({ state: 'unknown' })).gateways).toEqual(['https://gw.example']);
      expect((await ledger.entries({ gateway: 'sandbox', state: 'pending' })).gateways).toEqual([]);
    });
  });

  it('a ledger path that does not exist yet reads as empty', async () => {
    await withLedger([], async (ledger) => {
      expect(await gathered(ledger.entries({}))).toEqual([]);
      expect(await ledger.openOwners({})).toEqual([]);
      expect(await openOf(ledger)).toEqual([]);
      expect(await ledger.transaction('42')).toEqual([]);
    });
  });

  it('finds the first intent for the replay guard, per gateway and agent', async () => {
    const retry = { ...intent('42', '2026-11-22T10:00:00.000Z'), operator: 'later' };
    await withLedger([intent('42'), outcome('42', 'failed'), retry], async (ledger) => {
      const [found, ...more] = await ledger.transaction('42', owner);
      expect(more).toEqual([]);
      expect(found?.intent).toMatchObject({ amount: '499.00', account: 'a', service: '101' });
      expect(await ledger.transaction('42', { gateway: 'https://other', agentId: '1001' })).toEqual([]);
      expect(await ledger.transaction('42', { gateway: 'sandbox', agentId: '77' })).toEqual([]);
      // A retry of the same purchase is let through as a retry; another purchase under it is a conflict.
      const { kind: _kind, at: _at, ...asked } = intent('42');
      expect(await ledger.recordIntent(asked, { checkReplay: true })).toMatchObject({ kind: 'retry' });
      const conflict = await ledger.recordIntent({ ...asked, amount: '500.00' }, { checkReplay: true });
      expect(conflict).toMatchObject({ kind: 'conflict', earlier: { transactionId: '42', amount: '499.00' } });
    });
  });
});
