import { z } from 'zod';
import { allEntries, type JournalEntry } from '../journal/ledger.js';
import { transactionStates, unknownView, type TransactionView } from '../protocol/transaction-view.js';
import type { CommandContext } from './context.js';
import { parseOptions } from './purchase-options.js';
import { parseSince } from './since.js';

const historyOptionsSchema = z.object({
  since: z.string().optional(),
  state: z.enum(transactionStates, { error: `--state must be one of: ${transactionStates.join(', ')}` }).optional(),
  // As the journal names gateways: the base URL without trailing slashes (settings/parsers.ts), or "sandbox".
  gateway: z
    .string()
    .optional()
    .transform((value) => value?.trim().replace(/\/+$/, ''))
    .refine((value) => value !== '', '--gateway takes a base URL or sandbox'),
});

function latestView(entry: JournalEntry): TransactionView {
  if (entry.outcome) return entry.outcome.view;
  const { intent } = entry;
  return unknownView(intent, 'Payment', 'no answer recorded: run agentpay reconcile');
}

/** `agentpay history`: the journal, latest state per transaction. Reads only; sends nothing. */
export async function runHistory(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseOptions(historyOptionsSchema, rawOptions);
  const { out, settings } = context;
  const entries = await allEntries(settings.journalPath.value, { since: parseSince(options.since) }, (message) => out.warn(message));
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
    out.note(`no transactions in ${settings.journalPath.value}${options.state || options.since || options.gateway ? ' match' : ''}`);
    const gateways = [...new Set(entries.map(({ intent }) => intent.gateway))];
    if (options.gateway !== undefined && gateways.length > 0) out.note(out.errorStyle.dim(`gateways in the journal: ${gateways.join(', ')}`));
    return;
  }
  const { renderHistoryTable } = await import('../render/history.js');
  out.data(renderHistoryTable(rows.map(({ entry, view }) => ({ at: entry.intent.at, gateway: entry.intent.gateway, view })), { style: out.style, columns: out.columns }));
}
