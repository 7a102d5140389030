import { createHash } from 'node:crypto';
import type { RecordedBy } from '../ledger.js';
import { lineOf } from '../record-format.js';
import { differingParameters, type JournalRecord } from '../records.js';
import * as sql from './queries.js';
import { intentOfRow, intentValues, outcomeColumns, type Query } from './rows.js';

/**
 * Loads a journal's records (ledger/file/*), in their order, as if they had been recorded here
 * by `by`: each gets an id from its content, so loading the same journal twice adds nothing.
 * Open transactions stay open for reconcile. A TransactionID the ledger holds for another
 * purchase is left out, counted in `conflicts`. `query` waits for the connection's turn.
 */
export async function importJournalRecords(
  query: Query,
  by: RecordedBy,
  records: AsyncIterable<JournalRecord>,
): Promise<{ added: number; conflicts: string[] }> {
  const seen = new Map<string, number>();
  const idOf = (record: JournalRecord) => {
    const line = lineOf(record);
    const occurrence = (seen.get(line) ?? 0) + 1;
    seen.set(line, occurrence);
    return uuidOf(`${occurrence} ${line}`);
  };
  const conflicts: string[] = [];
  // Owners whose TransactionID the ledger holds for another purchase: none of their records go in.
  const refused = new Set<string>();
  const ownerOf = (record: JournalRecord) => `${record.gateway} ${record.agentId} ${record.transactionId}`;
  let added = 0;
  let inTransaction = 0;
  await query('BEGIN', []);
  for await (const record of records) {
    const recordId = idOf(record);
    if (refused.has(ownerOf(record))) continue;
    if (record.kind === 'outcome') {
      const [row] = await query(sql.insertOutcomes, outcomeColumns([{ recordId, ...by, record }]));
      added += Number(row?.inserted ?? 0);
    } else {
      const { kind: _kind, at, operator, host, ...intent } = record;
      // Who made it, where the journal says (newer journals do); else who imports it.
      const madeBy = { operator: operator ?? by.operator, host: host ?? by.host };
      const values = intentValues(intent, at, madeBy);
      values[11] = recordId;
      if ((await query(sql.insertIntent, values)).length > 0) added++;
      else {
        const [row] = await query(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId]);
        if (row !== undefined && differingParameters(intentOfRow(row), intent).length > 0) {
          conflicts.push(intent.transactionId);
          refused.add(ownerOf(record));
        } else if (row !== undefined)
          added += (
            await query(sql.insertAttempt, [
              recordId,
              row.seq,
              at,
              madeBy.operator,
              madeBy.host,
              intent.overrides ?? null,
            ])
          ).length;
      }
    }
    if (++inTransaction === 500) {
      await query('COMMIT', []);
      await query('BEGIN', []);
      inTransaction = 0;
    }
  }
  await query('COMMIT', []);
  return { added, conflicts };
}

/** A UUID (its version bits set as v8, "custom") from the SHA-256 of `text`: the same text, the same id. */
function uuidOf(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
