// What the ledger floors read (read-ledger.mjs, read-registry.mjs): every record of a SQLite
// ledger once, with its transaction, stepped row by row as `ledger export` reads them.
import { DatabaseSync } from 'node:sqlite';

/** How many records the ledger at `path` holds, each read whole once. */
export function readLedgerOnce(path) {
  const database = new DatabaseSync(path, { readOnly: true });
  try {
    const records = database.prepare(
      `SELECT t.gateway, t.agent_id, t.transaction_id, t.service, t.account, t.amount, t.currency, t.invoice_id,
              r.kind, r.at, r.source, r.state, r.view
       FROM agentpay_records r JOIN agentpay_transactions t ON t.seq = r.transaction_seq ORDER BY r.seq`,
    );
    let count = 0;
    for (const _record of records.iterate()) count++;
    return count;
  } finally {
    database.close();
  }
}
