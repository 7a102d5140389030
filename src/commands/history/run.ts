import { en } from '../../i18n/en.js';
import { untilInterrupted } from '../../interrupts.js';
import { approvalMarksOf } from '../../ledger/approval-marks.js';
import type { JournalEntry, Ledger, LedgerEntry, LedgerHistory } from '../../ledger/ledger.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord } from '../../options/values.js';
import { type TransactionView, unknownView } from '../../protocol/transaction-view.js';
import type { HistoryRow } from '../../render/history.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { type DataFormatChoice, dataFormatOption, writeCsvLine } from '../output-format.js';
import { parseSince } from '../since.js';
import { historyFilterOptions } from './options.js';

function historyOptions(raw: unknown, out: CommandContext['out']) {
  return { ...parseOptions(raw, historyFilterOptions), output: dataFormatOption(optionRecord(raw), out) };
}

function latestView(entry: JournalEntry): TransactionView {
  if (entry.outcome) return entry.outcome.view;
  const { intent } = entry;
  // Data (CSV, --json): the catalogue's English words.
  return unknownView(intent, 'Payment', en.receipt.noAnswerRecorded);
}

/** Who made the payment: the team ledger says for every one; the journal's intents since they name it. */
function recordedByOf({ recordedBy, intent }: LedgerEntry): LedgerEntry['recordedBy'] {
  return (
    recordedBy ?? (intent.operator === undefined ? undefined : { operator: intent.operator, host: intent.host ?? '-' })
  );
}

const rowOf = (entry: LedgerEntry): HistoryRow => ({
  at: entry.intent.at,
  gateway: entry.intent.gateway,
  view: latestView(entry),
  recordedBy: recordedByOf(entry),
  approval: approvalMarksOf(entry.intent),
});

async function* rowsOf(entries: AsyncIterable<LedgerEntry>): AsyncGenerator<HistoryRow> {
  for await (const entry of entries) yield rowOf(entry);
}

/** The entries as JSON lines, one each as it comes. */
async function showJson(entries: LedgerHistory, out: CommandContext['out']): Promise<number> {
  let lines = 0;
  for await (const entry of entries) {
    const { intent } = entry;
    out.data(
      JSON.stringify({
        ...latestView(entry),
        recordedAt: intent.at,
        gateway: intent.gateway,
        agentId: intent.agentId,
        ...(recordedByOf(entry) ?? {}),
        ...approvalMarksOf(intent),
      }),
    );
    await out.drainedNowAndThen(++lines);
  }
  return lines;
}

/** The entries as CSV (render/history-csv.ts): the header row, then one row each as it comes. */
async function showCsv(
  entries: LedgerHistory,
  out: CommandContext['out'],
  { bom, notation }: DataFormatChoice,
): Promise<number> {
  const [{ csvHeader, csvRow }, { historyCsvColumns }] = await Promise.all([
    import('../../render/csv.js'),
    import('../../render/history-csv.js'),
  ]);
  writeCsvLine(out, csvHeader(historyCsvColumns, { bom, ...notation }));
  let lines = 0;
  for await (const entry of entries) {
    const { intent } = entry;
    writeCsvLine(
      out,
      csvRow(
        historyCsvColumns,
        { ...rowOf(entry), agentId: intent.agentId, voucher: intent.voucher, invoiceId: intent.invoiceId },
        notation,
      ),
    );
    await out.drainedNowAndThen(++lines);
  }
  return lines;
}

// The entries in the format asked for, each written as it comes (nothing holds them); how many it wrote.
async function showEntries(
  entries: LedgerHistory,
  ledger: Ledger,
  out: CommandContext['out'],
  output: DataFormatChoice,
): Promise<number> {
  const { format } = output;
  if (format === 'json') return showJson(entries, out);
  if (format === 'csv') return showCsv(entries, out, output);
  const { historyTableLines } = await import('../../render/history.js');
  let hidden: readonly string[] = [];
  const options = {
    style: out.style,
    showGateway: entries.gateways.length > 1,
    showRecordedBy: ledger.location.kind === 'postgres',
    said: t(),
    width: out.tableWidth,
    onHidden: (headings: readonly string[]) => void (hidden = headings),
  };
  let lines = 0;
  for await (const line of historyTableLines(rowsOf(entries), options)) {
    out.data(line);
    await out.drainedNowAndThen(++lines);
  }
  if (hidden.length > 0) out.note(out.errorStyle.dim(t().hiddenColumns(hidden.join(', '))));
  return lines;
}

/** `agentpay history`: the ledger (the whole team's, with PostgreSQL), latest state per transaction, streamed. Reads only; sends nothing. */
export async function runHistory(rawOptions: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const options = historyOptions(rawOptions, out);
  const ledger = await context.openLedger();
  const filter = {
    since: parseSince(options.since),
    state: options.state,
    gateway: options.gateway,
    operator: options.operator,
  };
  const read = await ledger.entries(filter);
  // Ctrl+C or SIGTERM stops the listing between two transactions.
  const entries: LedgerHistory = { ...read, [Symbol.asyncIterator]: () => untilInterrupted(read, context.interrupts) };
  // JSON and CSV say nothing more for no rows (CSV: its header row alone); a table says why it is empty.
  if ((await showEntries(entries, ledger, out, options.output)) > 0 || options.output.format !== 'table') return;
  const filtered = options.state || options.since || options.gateway || options.operator;
  out.note(t().history.none(ledger.location.shown, Boolean(filtered)));
  if (options.gateway !== undefined && entries.allGateways.length > 0)
    out.note(out.errorStyle.dim(t().history.gateways(entries.allGateways.join(', '))));
}
