import type { ImportStore } from '../sql/import-records.js';
import { intentOfRow, intentValues, outcomeColumns, type Query } from '../sql/rows.js';
import * as sql from './queries.js';

/** The team ledger's statements for an import (sql/import-records.ts), each in the connection's turn. */
export function importStoreOf(query: Query): ImportStore {
  return {
    begin: async () => void (await query('BEGIN', [])),
    commit: async () => void (await query('COMMIT', [])),
    insertIntent: async (intent, at, by, recordId) => {
      const values = intentValues(intent, at, by);
      values[11] = recordId;
      return (await query(sql.insertIntent, values)).length > 0;
    },
    selectIntent: async (intent) => {
      const [row] = await query(sql.selectIntent, [intent.gateway, intent.agentId, intent.transactionId]);
      return row === undefined ? undefined : { seq: row.seq, intent: intentOfRow(row) };
    },
    insertAttempt: async (seq, intent, at, by, recordId) =>
      (await query(sql.insertAttempt, [recordId, seq, at, by.operator, by.host, intent.overrides ?? null])).length > 0,
    insertOutcome: async (outcome) => {
      const [row] = await query(sql.insertOutcomes, outcomeColumns([outcome]));
      return Number(row?.inserted ?? 0) > 0;
    },
  };
}
