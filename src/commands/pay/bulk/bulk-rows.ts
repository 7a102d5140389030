import { Interned } from '../../../packed/interned.js';
import { longNumber } from '../../../packed/long-number.js';
import { PackedIds, SmallIndexes } from '../../../packed/small-indexes.js';
import type { CodeTable } from '../../../protocol/codes.js';
import type { OrderStore } from './order-store.js';
import { type BulkRow, bulkRowOf } from './plan.js';
import type { ResultRow } from './results-file.js';
import type { PriorRows } from './results-read.js';
import type { LedgerRows } from './resume-ledger.js';

/**
 * Every row of a bulk run as compact state beside the packed orders (order-store.ts): where
 * it starts, its TransactionID as a 64-bit integer, what it pays and its latest word as indexes
 * into tables of the distinct values, the desk's guards lifted as bits. A step makes a row's
 * BulkRow when it reaches the row (`get`) and writes back what it learned (`put`); no object is
 * kept a row, so a file of 1,000,000 rows holds ~10 bytes a row here.
 */
const starts = ['new', 'open', 'final'] as const;
/**
 * The distinct words (state, status, Message) a run keeps for the end's rewrite at most. A
 * gateway that puts something of each payment in its Message (its id, a time) makes a word a
 * row: kept, ~350 bytes a row (a 1,000,000-row run ~350 MB). Past this many the run keeps none,
 * and its results file is left as appended: every row's last line is still its word.
 */
export const wordsKeptAtMost = 4096;
/** A row's word as the results file keeps it: its state, status and Message. */
type Word = [ResultRow['state'], string | undefined, string | undefined];
/** The guards lifted, in the order desk-problems.ts lifts them: a duplicate in the file, the limits, a duplicate in the ledger. */
const [fileDuplicate, overLimit, ledgerDuplicate] = [1, 2, 4];

export class BulkRows {
  private readonly start: Uint8Array;
  /** Made once a row has a TransactionID (not in a dry run of a new file), as `word` once a row ends. */
  private ids: PackedIds | undefined;
  /** TransactionIDs a 64-bit integer does not give back as written (none that agentpay makes). */
  private readonly oddIds = new Map<number, string>();
  private readonly lifted: Uint8Array;
  /** What a row pays: none is what its order says (amount, invoice-id, no voucher name). */
  private paid: SmallIndexes | undefined;
  private readonly paidTable = new Interned<[string | undefined, string | undefined, string | undefined]>();
  /** Its latest word in the results file: none yet this run, or an index into `wordTable`. */
  private word: SmallIndexes | undefined;
  private wordTable = new Interned<Word>();
  /** Whether every row's latest word is kept (`latest`): false once the words outgrew `wordsKeptAtMost`. */
  keepsWords = true;

  constructor(
    readonly orders: OrderStore,
    private readonly prior: PriorRows | undefined,
    private readonly held: LedgerRows,
    codes: CodeTable,
  ) {
    const count = orders.length;
    this.start = new Uint8Array(count);
    this.lifted = new Uint8Array(count);
    for (let index = 0; index < count; index++) {
      const before = prior?.get(index);
      if (before === undefined) continue;
      const order = orders.get(index);
      this.put(index, bulkRowOf(order, before, held.entryOf(index, order, before), codes));
    }
  }

  get length(): number {
    return this.orders.length;
  }

  startOf(index: number): BulkRow['start'] {
    return starts[this.start[index]!]!;
  }

  get(index: number): BulkRow {
    const order = this.orders.get(index);
    const prior = this.prior?.get(index);
    const paid = this.paid?.get(index);
    const [paidAmount, paidInvoiceId, voucher] =
      paid === undefined ? [order.amount, order.invoiceId, undefined] : this.paidTable.at(paid);
    const bits = this.lifted[index]!;
    const lifted: string[] = [];
    if (bits & fileDuplicate) lifted.push('allow-duplicate');
    if (bits & overLimit) lifted.push('over-limit');
    if (bits & ledgerDuplicate && !(bits & fileDuplicate)) lifted.push('allow-duplicate');
    const id = this.ids?.get(index) ?? 0n;
    return {
      line: order.line,
      key: order.key,
      service: order.service,
      account: order.account,
      currency: order.currency,
      invoiceId: order.invoiceId,
      invoicePosition: order.invoicePosition,
      amount: order.amount,
      transactionId: id === 0n ? this.oddIds.get(index) : id.toString(),
      start: this.startOf(index),
      prior,
      entry: prior === undefined ? undefined : this.held.entryOf(index, order, prior),
      paidAmount,
      paidInvoiceId,
      voucher,
      lifted,
    };
  }

  /** What a step learned of the row: its start, TransactionID, what it pays, the guards lifted. */
  put(index: number, row: BulkRow): void {
    this.start[index] = starts.indexOf(row.start);
    const id = row.transactionId;
    const number = id === undefined ? undefined : longNumber(id);
    if (number !== undefined) (this.ids ??= new PackedIds(this.length)).set(index, number);
    else if (id !== undefined) this.oddIds.set(index, id);
    const plain = row.paidAmount === row.amount && row.paidInvoiceId === row.invoiceId && row.voucher === undefined;
    if (!plain)
      (this.paid ??= new SmallIndexes(this.length)).set(
        index,
        this.paidTable.indexOf([row.paidAmount, row.paidInvoiceId, row.voucher]),
      );
    else this.paid?.set(index, undefined);
    let bits = 0;
    const duplicates = row.lifted.filter((guard) => guard === 'allow-duplicate').length;
    if (row.lifted[0] === 'allow-duplicate') bits |= fileDuplicate;
    if (row.lifted.includes('over-limit')) bits |= overLimit;
    if (duplicates > 0 && row.lifted[0] !== 'allow-duplicate') bits |= ledgerDuplicate;
    this.lifted[index] = bits;
  }

  /** The row's latest word this run, as the results file keeps it. */
  setWord(index: number, result: ResultRow): void {
    if (!this.keepsWords) return;
    const word = this.wordTable.indexWithin([result.state, result.status, result.message], wordsKeptAtMost);
    if (word === undefined) {
      this.keepsWords = false;
      this.word = undefined;
      this.wordTable = new Interned();
      return;
    }
    this.word ??= new SmallIndexes(this.length);
    this.word.set(index, word);
  }

  /** The row as the results file keeps it: its latest word this run over what `planned` says. */
  latest(index: number, planned: ResultRow): ResultRow {
    if (!this.keepsWords) throw new Error('the rows no longer keep their words');
    const word = this.word?.get(index);
    if (word === undefined) return planned;
    const [state, status, message] = this.wordTable.at(word);
    // Assigned, not spread: one of these per row each time the results file is written whole.
    planned.state = state;
    planned.status = status;
    planned.message = message;
    return planned;
  }
}
