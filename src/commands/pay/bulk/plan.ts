import { setImmediate as nextTurn } from 'node:timers/promises';
import { AgentpayError, VoucherChoiceError } from '../../../errors.js';
import type { GatewayClient } from '../../../gateway/client.js';
import type { BulkRun, PageOptions, PlannedRow } from '../../../ledger/bulk-run.js';
import type { JournalEntry, Ledger, Owner, RecentPayment } from '../../../ledger/ledger.js';
import { type CodeTable, classifyCode } from '../../../protocol/codes.js';
import { sameDecimal } from '../../../protocol/money.js';
import { checkPurchase } from '../../../purchase/account-check.js';
import { type LookBack, lookBackOf } from '../../../purchase/desk-rules.js';
import { voucherOf } from '../../../purchase/voucher-choice.js';
import type { BadRow } from '../../../render/bulk.js';
import type { Settings } from '../../../settings/resolve.js';
import { forEachOrdered } from '../../ordered-pool.js';

// A bulk run's plan, made before any Payment and kept in the ledger's table of the file: where each row stands
// after earlier runs, its voucher from a fresh AccountCheck, and the desk's rules over the file in order on
// top of the ledger's (purchase/desk-rules.ts). Each step reads the rows a page at a time.
export interface BulkRow extends PlannedRow {
  /** final: skipped; open: an intent in the ledger without a final word (settled by Status); new: to pay. */
  start: 'final' | 'open' | 'new';
}

/** Rows read, or written back, at once. */
const pageRows = 500;

/** The rows of the file in its order, a page at a time (PageOptions: with the ledger's entries, or some of them only). */
export async function* rowsOf(run: BulkRun, afterLine = 0, options: PageOptions = {}): AsyncGenerator<BulkRow> {
  for (let after = afterLine; ; ) {
    const page = await run.page(after, pageRows, options);
    // A turn of the event loop a page: Ctrl+C is heard while a step reads every row.
    await nextTurn();
    for (const row of page) yield { ...row, start: row.start ?? 'new' };
    if (page.length < pageRows) return;
    after = page.at(-1)!.line;
  }
}

// A failure that is the gateway's word on the payment, final. "Not sent" or "never made" (a notFound code) was
// never taken, so it is paid again under its TransactionID (spec 3 rule 2).
const isGatewaysFailure = (state: string | undefined, status: string | null, codes: CodeTable): boolean =>
  state === 'failed' && status !== null && classifyCode(status, codes) !== 'notFound';

/** Where a row starts by the ledger's entry for its TransactionID: none is a row never sent. */
export function startOf(entry: JournalEntry | undefined, codes: CodeTable): BulkRow['start'] {
  const view = entry?.outcome?.view;
  const final = view?.state === 'success' || (view !== undefined && isGatewaysFailure(view.state, view.status, codes));
  return final ? 'final' : entry !== undefined ? 'open' : 'new';
}

/** Where a row starts, and what it pays then. */
function started(row: PlannedRow, codes: CodeTable): BulkRow {
  const { entry } = row;
  const start = startOf(entry, codes);
  if (entry === undefined) return { ...row, start, paidAmount: row.amount, paidInvoiceId: row.invoiceId };
  const { amount, invoiceId, voucher } = entry.intent;
  return { ...row, start, paidAmount: amount, paidInvoiceId: invoiceId ?? undefined, voucher };
}

/** What the first pass over the rows learned: how many start where, and the currencies the desk's rules weigh. */
export interface Starts {
  rows: number;
  final: number;
  open: number;
  new: number;
  earlier: number;
  currencies: Set<string>;
  /** Rows whose kept TransactionID the ledger holds for another purchase: written there by someone else. */
  misplaced: PlannedRow[];
}

// A row's TransactionID is kept before its Payment, so the ledger's transaction under it is the row's purchase,
// unless someone wrote the row or the transaction by hand (the team ledger refuses both since migration 10).
function isOtherPurchase(row: PlannedRow): boolean {
  const intent = row.entry?.intent;
  if (intent === undefined) return false;
  return (
    intent.service !== row.service ||
    intent.account !== row.account ||
    intent.currency !== row.currency ||
    (row.invoiceId !== undefined && intent.invoiceId !== row.invoiceId) ||
    (row.amount !== undefined && !sameDecimal(intent.amount, row.amount))
  );
}

// Each row's start and what it pays as far as known before its AccountCheck: a row no earlier run had is new
// (one statement for all); an earlier run's starts by its entry.
export async function settleStarts(run: BulkRun, codes: CodeTable): Promise<Starts> {
  await run.startNew();
  const rows = await run.count();
  const currencies = new Set(await run.currencies());
  const starts: Starts = { rows, final: 0, open: 0, new: 0, earlier: 0, currencies, misplaced: [] };
  const batch = new PlanWrites(run);
  for await (const row of rowsOf(run, 0, { only: 'earlier' })) {
    if (isOtherPurchase(row)) starts.misplaced.push(row);
    const planned = started(row, codes);
    starts[planned.start]++;
    starts.earlier++;
    await batch.put(planned);
  }
  await batch.flush();
  starts.new = rows - starts.final - starts.open;
  return starts;
}

/** What steps learned of rows, written back to the ledger's table `pageRows` at a time. */
export class PlanWrites {
  private rows: BulkRow[] = [];

  constructor(private readonly run: BulkRun) {}

  async put(row: BulkRow): Promise<void> {
    this.rows.push(row);
    if (this.rows.length >= pageRows) await this.flush();
  }

  async flush(): Promise<void> {
    const rows = this.rows.splice(0);
    if (rows.length > 0) await this.run.update(rows);
  }
}

/** How many accounts one look-back asks for: a list the server holds as a query's parameter. */
const accountsAsked = 10_000;

// The recent payments to the accounts of rows that may still be paid, and the operator's under a daily limit:
// what the desk's rules weigh (desk-rules.ts lookBackOf), asked a slice of accounts at a time.
export async function recentToAccounts(
  ledger: Ledger,
  owner: Owner,
  look: LookBack | undefined,
  run: BulkRun,
): Promise<RecentPayment[]> {
  if (look === undefined) return [];
  const found = new Map<string, RecentPayment>();
  const ask = async (accounts: string[]) => {
    const query = { ...owner, since: look.since, accounts, operator: look.operator };
    for (const payment of await ledger.recentPayments(query)) found.set(payment.intent.transactionId, payment);
  };
  let after = '';
  for (;;) {
    const accounts = await run.accounts(after, accountsAsked);
    // No account at all: the operator's payments are still asked for.
    if (accounts.length > 0 || after === '') await ask(accounts);
    if (accounts.length < accountsAsked) break;
    after = accounts.at(-1)!;
  }
  return [...found.values()].sort((a, b) => Date.parse(a.intent.at) - Date.parse(b.intent.at));
}

/** What the desk's rules read of the ledger for rows of these currencies (desk-rules.ts lookBackOf). */
export function lookBackFor(
  settings: Pick<Settings, 'desk' | 'operator'>,
  currencies: ReadonlySet<string>,
  now: Date,
): LookBack | undefined {
  return lookBackOf(settings.desk, settings.operator.value, currencies, settings.desk.duplicateWindowMs.value, now);
}

// spec 4.1: a fresh AccountCheck for each dynamic row to pay, `concurrency` at a time, its voucher passed whole.
// A refusal, an InvoiceId not listed or an amount not its OrderAmount makes the row bad; an unreachable or
// unreadable gateway ends the run, nothing paid.
export async function resolveVouchers(
  client: GatewayClient,
  run: BulkRun,
  concurrency: number,
  stopped: () => boolean,
): Promise<BadRow[]> {
  const problems: BadRow[] = [];
  const column = (row: BulkRow) => (row.invoiceId === undefined ? 'invoice' : 'invoice-id');
  const writes = new PlanWrites(run);
  await forEachOrdered(
    (async function* () {
      for await (const row of rowsOf(run, 0, { entries: false, only: 'vouchers' })) {
        if (stopped()) return;
        yield row;
      }
    })(),
    concurrency,
    async (row) => {
      try {
        const { vouchers } = await checkPurchase(client, row);
        const voucher = voucherOf(vouchers, row);
        row.paidAmount = voucher.orderAmount;
        row.paidInvoiceId = voucher.invoiceId;
        row.voucher = voucher.name;
        await writes.put(row);
      } catch (error) {
        if (!(error instanceof AgentpayError) || error.exitCode > 2) throw error;
        // Said for the row, under its column: the reason alone ("nothing was sent" is the file's, once).
        const choice = error instanceof VoucherChoiceError ? error : undefined;
        problems.push({
          line: row.line,
          column: choice?.field === 'amount' ? 'amount' : column(row),
          message: choice?.reason ?? error.message,
        });
      }
    },
    () => undefined,
  );
  await writes.flush();
  return problems;
}
