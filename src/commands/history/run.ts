import { UsageError } from '../../errors.js';
import type { JournalEntry } from '../../journal/ledger.js';
import type { LedgerEntry } from '../../ledger/ledger.js';
import { choiceOption, optionalText, optionRecord } from '../../options/values.js';
import { type TransactionView, transactionStates, unknownView } from '../../protocol/transaction-view.js';
import type { CommandContext } from '../context.js';
import { parseSince } from '../since.js';

function historyOptions(raw: unknown) {
  const options = optionRecord(raw);
  const gateway = optionalText(options.gateway, '--gateway')?.trim().replace(/\/+$/, '');
  if (gateway === '') throw new UsageError('--gateway takes a base URL or sandbox');
  return {
    since: optionalText(options.since, '--since'),
    state: choiceOption(options.state, transactionStates, `--state must be one of: ${transactionStates.join(', ')}`),
    // As the journal names gateways: the base URL without trailing slashes (settings/parsers.ts), or "sandbox".
    gateway,
  };
}

function latestView(entry: JournalEntry): TransactionView {
  if (entry.outcome) return entry.outcome.view;
  const { intent } = entry;
  return unknownView(intent, 'Payment', 'no answer recorded: run agentpay reconcile');
}

/** `agentpay history`: the journal, latest state per transaction. Reads only; sends nothing. */
export async function runHistory(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = historyOptions(rawOptions);
  const { out, settings } = context;
  const ledger = await context.openLedger();
  const entries: LedgerEntry[] = [];
  for await (const entry of ledger.entries({ since: parseSince(options.since) })) entries.push(entry);
  const rows = entries
    .map((entry) => ({ entry, view: latestView(entry) }))
    .filter(({ entry }) => options.gateway === undefined || entry.intent.gateway === options.gateway)
    .filter(({ view }) => options.state === undefined || view.state === options.state);
  if (out.json) {
    for (const { entry, view } of rows) {
      out.data(JSON.stringify({ ...view, recordedAt: entry.intent.at, gateway: entry.intent.gateway, agentId: entry.intent.agentId }));
    }
    return;
  }
  if (rows.length === 0) {
    out.note(`no transactions in ${settings.ledger.value.shown}${options.state || options.since || options.gateway ? ' match' : ''}`);
    const gateways = [...new Set(entries.map(({ intent }) => intent.gateway))];
    if (options.gateway !== undefined && gateways.length > 0) out.note(out.errorStyle.dim(`gateways in the journal: ${gateways.join(', ')}`));
    return;
  }
  const { renderHistoryTable } = await import('../../render/history.js');
  out.data(
    renderHistoryTable(
      rows.map(({ entry, view }) => ({ at: entry.intent.at, gateway: entry.intent.gateway, view })),
      { style: out.style, columns: out.columns },
    ),
  );
}
