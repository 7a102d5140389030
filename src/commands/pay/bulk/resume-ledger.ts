import type { Ledger, Owner } from '../../../ledger/ledger.js';
import type { IntentRecord } from '../../../ledger/records.js';
import { Interned } from '../../../packed/interned.js';
import { longNumber } from '../../../packed/long-number.js';
import { PackedIds, SmallIndexes } from '../../../packed/small-indexes.js';
import { type CodeTable, classifyCode } from '../../../protocol/codes.js';
import { type TransactionView, transactionStates } from '../../../protocol/transaction-view.js';
import { FirstSeen } from './first-seen.js';
import type { OrderRow } from './order-row.js';
import type { OrderStore } from './order-store.js';
import type { ResultRow } from './results-file.js';
import type { PriorRows } from './results-read.js';

/**
 * What a resumed run reads of the ledger's entries for the whole file, in one reading: for each
 * row whose TransactionID the ledger holds, what the run reads of that entry later, packed by
 * row index (a byte for its state, its word and what it paid as indexes into tables of the
 * distinct values, its RequestID as a 64-bit integer). A finished run of 1,000,000 rows held an
 * entry object a row here before.
 */

/** A row's entry as the run reads it: what its intent paid, and its latest word. */
export interface LedgerWord {
  intent: Pick<IntentRecord, 'amount' | 'invoiceId' | 'voucher'>;
  /** The view's state, status, RequestID and message are the ledger's; the rest is what the row sent. */
  outcome: { view: TransactionView } | undefined;
}

/** A row's entry: none, an intent without an outcome, or an outcome of state `transactionStates[kind - 2]`. */
const [noEntry, noOutcome] = [0, 1];

export class LedgerRows {
  private readonly kind: Uint8Array;
  /**
   * The outcome's status and message, as an index into `words` (a byte a row while there are
   * few); none when they are the results file's for the row, as they are but for a row whose
   * outcome came after its line (a kill between the two, a later `reconcile`). So a gateway
   * that names each payment in its Message makes no word a row here.
   */
  private said: SmallIndexes | undefined;
  private readonly words = new Interned<[string | null, string]>();
  /** What the intent paid: none is what the order says (its amount and InvoiceId, no voucher name). */
  private paid: SmallIndexes | undefined;
  private readonly paidTable = new Interned<[string, string | null, string | undefined]>();
  /** The outcome's RequestID as a 64-bit integer (a Long, spec 2.3); 0 is none, or one kept as text. */
  private requestIds: PackedIds | undefined;
  private readonly oddRequestIds = new Map<number, string>();

  constructor(
    private readonly orders: OrderStore,
    rows: number,
    private readonly prior?: PriorRows,
  ) {
    this.kind = new Uint8Array(rows);
  }

  /** The first intent the ledger holds for the row's TransactionID: what it paid; no word on it yet. */
  intent(index: number, intent: IntentRecord): void {
    const order = this.orders.get(index);
    const plain =
      intent.amount === order.amount && intent.invoiceId === (order.invoiceId ?? null) && intent.voucher === undefined;
    if (!plain)
      (this.paid ??= new SmallIndexes(this.kind.length)).set(
        index,
        this.paidTable.indexOf([intent.amount, intent.invoiceId, intent.voucher]),
      );
    else this.paid?.set(index, undefined);
    this.kind[index] = noOutcome;
  }

  /** The entry's latest word as the ledger reads on: undefined when there is none (again: a new attempt). */
  outcome(index: number, view: TransactionView | undefined): void {
    if (view === undefined) {
      this.kind[index] = noOutcome;
      return;
    }
    this.kind[index] = 2 + transactionStates.indexOf(view.state);
    const inFile = this.prior?.wordOf(index);
    if (inFile !== undefined && view.status === (inFile[0] ?? null) && view.message === (inFile[1] ?? ''))
      this.said?.set(index, undefined);
    else (this.said ??= new SmallIndexes(this.kind.length)).set(index, this.words.indexOf([view.status, view.message]));
    const requestId = view.requestId ?? undefined;
    const number = requestId === undefined ? 0n : (longNumber(requestId) ?? 0n);
    if (number !== 0n || this.requestIds !== undefined)
      (this.requestIds ??= new PackedIds(this.kind.length)).set(index, number);
    if (requestId !== undefined && number === 0n) this.oddRequestIds.set(index, requestId);
    else this.oddRequestIds.delete(index);
  }

  /** The row's entry, made when a step reads it; `inFile` is the row as the results file has it. */
  entryOf(index: number, order: OrderRow, inFile: ResultRow): LedgerWord | undefined {
    const kind = this.kind[index] ?? noEntry;
    if (kind === noEntry) return undefined;
    const paid = this.paid?.get(index);
    const [amount, invoiceId, voucher] =
      paid === undefined ? [order.amount ?? '', order.invoiceId ?? null, undefined] : this.paidTable.at(paid);
    const intent = voucher === undefined ? { amount, invoiceId } : { amount, invoiceId, voucher };
    if (kind === noOutcome) return { intent, outcome: undefined };
    const own = this.said?.get(index);
    const [status, message] = own === undefined ? [inFile.status ?? null, inFile.message ?? ''] : this.words.at(own);
    const number = this.requestIds?.get(index) ?? 0n;
    // Spelled out (unknownView's fields, in its order), not spread: a run makes one a row.
    const view: TransactionView = {
      transactionId: inFile.transactionId,
      requestId: number === 0n ? (this.oddRequestIds.get(index) ?? null) : number.toString(),
      type: 'Payment',
      status,
      state: transactionStates[kind - 2]!,
      message,
      service: order.service ?? null,
      account: order.account ?? null,
      amount,
      currency: order.currency ?? null,
      exchangeRate: null,
      serviceCurrency: null,
    };
    return { intent, outcome: { view } };
  }
}

/**
 * A failure that is the gateway's word on the payment: final. A "not sent" (no status) or "never
 * made" (a notFound code) was never taken, so it is paid again under its TransactionID (spec 3 rule 2).
 */
export const isGatewaysFailure = (state: string | undefined, status: string | null, codes: CodeTable): boolean =>
  state === 'failed' && status !== null && classifyCode(status, codes) !== 'notFound';

/** Whether a row may still be paid: no earlier word, or none final (a success or the gateway's failure never is). */
export const mayBePaid = (prior: PriorRows, index: number, codes: CodeTable): boolean => {
  const state = prior.stateOf(index);
  if (state !== 'failed') return state !== 'success';
  return !isGatewaysFailure(state, prior.wordOf(index)?.[0] ?? null, codes);
};

/**
 * Resuming: the ledger's entries (of any age) for the rows' TransactionIDs, in one reading of
 * the ledger keyed by the rows themselves (ledger.ts chosenEntries): a TransactionID is looked
 * up in a hash table over the rows (first-seen.ts), given back when the reading ends, and the
 * ledger keeps nothing of the transactions that are not the rows'.
 */
export async function readResumeLedger(
  ledger: Ledger,
  owner: Owner,
  prior: PriorRows,
  orders: OrderStore,
): Promise<LedgerRows> {
  const held = new LedgerRows(orders, orders.length, prior);
  const idOf = (index: number) => prior.transactionIdOf(index) ?? '';
  const ids = new FirstSeen(idOf, prior.size);
  /** Rows with the TransactionID of an earlier row (none that agentpay writes): they read the same entry. */
  const sameId = new Map<number, number[]>();
  for (let index = 0; index < orders.length; index++) {
    const id = prior.transactionIdOf(index);
    if (id === undefined) continue;
    const first = ids.firstOrAdd(index, id);
    if (first !== -1) sameId.set(first, [...(sameId.get(first) ?? []), index]);
  }
  const none: number[] = [];
  try {
    await ledger.chosenEntries(owner, {
      count: orders.length,
      numberOf: (transactionId) => ids.find(transactionId),
      intent: (first, intent) => {
        held.intent(first, intent);
        for (const index of sameId.get(first) ?? none) held.intent(index, intent);
      },
      outcome: (first, outcome) => {
        held.outcome(first, outcome?.view);
        for (const index of sameId.get(first) ?? none) held.outcome(index, outcome?.view);
      },
    });
  } finally {
    ids.release();
  }
  return held;
}
