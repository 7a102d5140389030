import { LocalStorageError } from '../errors.js';
import type { JournalEntry, LedgerFilter } from '../journal/ledger.js';
import type { LookBackQuery, RecentPayment } from '../journal/look-back.js';
import type { PaymentRow, PaymentsQuery } from '../journal/payments.js';
import type { JournalWarning } from '../journal/reader.js';
import { differingParameters, type OutcomeRecord } from '../journal/records.js';
import { JournalWriter } from '../journal/writer.js';
import type { ClaimedBatch, Intent, IntentResult, Ledger, LedgerHistory, LedgerHistoryFilter, Owner, OwnerCount, RecordedBy } from './ledger.js';
import type { LedgerLocation } from './location.js';

const ownerKey = ({ gateway, agentId }: Owner) => `${gateway} ${agentId}`;

/** The journal's readers, loaded when one is needed: a plain `pay` only appends. */
const readers = () => import('../journal/ledger.js');

/**
 * The ledger as a JSON Lines journal on this machine (journal/*): embedded, nothing to run.
 * The replay guard reads the journal, then the intent is appended: one machine's processes.
 */
export class FileLedger implements Ledger {
  readonly location: LedgerLocation & { kind: 'file' };
  private readonly writer: JournalWriter;
  private readonly warn: JournalWarning;
  /** The open transactions as last read, so openOwners and claimOpen read the journal once. */
  private open: { since: number | undefined; entries: JournalEntry[] } | undefined;

  private readonly by: RecordedBy;

  constructor(location: LedgerLocation & { kind: 'file' }, warn: JournalWarning, by: RecordedBy) {
    this.location = location;
    this.writer = new JournalWriter(location.path);
    this.warn = warn;
    this.by = by;
  }

  async recordIntent(intent: Intent, options: { checkReplay: boolean }): Promise<IntentResult> {
    const earlier = options.checkReplay ? await (await readers()).findIntent(this.location.path, intent, this.warn) : undefined;
    if (earlier !== undefined && differingParameters(earlier, intent).length > 0) return { kind: 'conflict', earlier };
    await this.writer.appendGrouped({ kind: 'intent', ...intent, ...this.by, at: new Date().toISOString() });
    return { kind: earlier === undefined ? 'new' : 'retry' };
  }

  async recordOutcome(outcome: OutcomeRecord): Promise<void> {
    await this.writer.appendGrouped(outcome);
  }

  private async openEntries(filter: LedgerFilter): Promise<JournalEntry[]> {
    const since = filter.since?.getTime();
    if (this.open?.since !== since || this.open === undefined) this.open = { since, entries: await (await readers()).openEntries(this.location.path, filter, this.warn) };
    return this.open.entries;
  }

  async openOwners(filter: LedgerFilter): Promise<OwnerCount[]> {
    const counts = new Map<string, OwnerCount>();
    for (const { intent } of await this.openEntries(filter)) {
      const key = ownerKey(intent);
      const count = counts.get(key) ?? { gateway: intent.gateway, agentId: intent.agentId, count: 0 };
      count.count++;
      counts.set(key, count);
    }
    return [...counts.values()];
  }

  /** One batch: the open transactions are in memory already, and each outcome is appended as it comes. */
  async *claimOpen(owner: Owner, filter: LedgerFilter): AsyncIterable<ClaimedBatch> {
    const mine = (await this.openEntries(filter)).filter(({ intent }) => ownerKey(intent) === ownerKey(owner));
    if (mine.length > 0) yield this.batchOf(mine);
  }

  /** A batch whose outcomes are appended as they come; one the journal cannot take is counted. */
  private batchOf(entries: JournalEntry[]): ClaimedBatch {
    let unrecorded = 0;
    let failure: unknown;
    return {
      entries,
      record: async (outcome) => {
        try {
          await this.writer.appendGrouped(outcome);
        } catch (error) {
          if (!(error instanceof LocalStorageError)) throw error;
          unrecorded++;
          failure ??= error;
        }
      },
      done: async () => (unrecorded === 0 ? { unrecorded } : { unrecorded, failure }),
    };
  }

  async entries(filter: LedgerHistoryFilter): Promise<LedgerHistory> {
    const all = await (await readers()).allEntries(this.location.path, filter, this.warn);
    const { operator } = filter;
    if (operator === undefined) return all;
    // Intents name their operator since the desk's guards came (older ones match no --operator).
    return {
      gateways: all.gateways,
      allGateways: all.allGateways,
      async *[Symbol.asyncIterator]() {
        for await (const entry of all) if (entry.intent.operator === operator) yield entry;
      },
    };
  }

  async recentPayments(query: LookBackQuery): Promise<RecentPayment[]> {
    return (await import('../journal/look-back.js')).recentPayments(this.location.path, query);
  }

  async *payments(query: PaymentsQuery): AsyncGenerator<PaymentRow[]> {
    yield* (await import('../journal/payments.js')).journalPayments(this.location.path, query, this.warn);
  }

  async close(): Promise<void> {
    this.writer.close();
  }

  async transaction(transactionId: string, owner?: Owner): Promise<JournalEntry[]> {
    const { findTransaction } = await import('../journal/find-transaction.js');
    const entries = await findTransaction(this.location.path, transactionId, this.warn);
    return owner === undefined ? entries : entries.filter(({ intent }) => ownerKey(intent) === ownerKey(owner));
  }
}
