import { UsageError } from '../../errors.js';
import { allEntries, type HistoryEntries, type JournalEntry } from '../../journal/ledger.js';
import { choiceOption, optionalText, optionRecord } from '../../options/values.js';
import { type TransactionView, transactionStates, unknownView } from '../../protocol/transaction-view.js';
import type { HistoryRow } from '../../render/history.js';
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

const rowOf = (entry: JournalEntry): HistoryRow => ({ at: entry.intent.at, gateway: entry.intent.gateway, view: latestView(entry) });

async function* rowsOf(entries: AsyncIterable<JournalEntry>): AsyncGenerator<HistoryRow> {
  for await (const entry of entries) yield rowOf(entry);
}

/**
 * The entries as JSON lines or a table, each written as it comes: nothing here holds them,
 * whichever ledger streams them. Returns how many lines it wrote.
 */
async function showEntries(entries: HistoryEntries, out: CommandContext['out']): Promise<number> {
  let lines = 0;
  if (out.json) {
    for await (const entry of entries) {
      out.data(JSON.stringify({ ...latestView(entry), recordedAt: entry.intent.at, gateway: entry.intent.gateway, agentId: entry.intent.agentId }));
      lines++;
    }
    return lines;
  }
  const { historyTableLines } = await import('../../render/history.js');
  for await (const line of historyTableLines(rowsOf(entries), { style: out.style, showGateway: entries.gateways.length > 1 })) {
    out.data(line);
    lines++;
  }
  return lines;
}

/** `agentpay history`: the journal, latest state per transaction, streamed. Reads only; sends nothing. */
export async function runHistory(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = historyOptions(rawOptions);
  const { out, settings } = context;
  const filter = { since: parseSince(options.since), state: options.state, gateway: options.gateway };
  const entries = await allEntries(settings.journalPath.value, filter, (message) => out.warn(message));
  if ((await showEntries(entries, out)) > 0 || out.json) return;
  out.note(`no transactions in ${settings.journalPath.value}${options.state || options.since || options.gateway ? ' match' : ''}`);
  if (options.gateway !== undefined && entries.allGateways.length > 0) out.note(out.errorStyle.dim(`gateways in the journal: ${entries.allGateways.join(', ')}`));
}
