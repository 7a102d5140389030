import type { PaymentRow } from '../ledger/ledger.js';
import { localDay } from '../local-day.js';
import { addDecimals, isPlainDecimal, sameDecimal } from '../protocol/money.js';
import type { TransactionState } from '../protocol/transaction-view.js';
import type { RegistryRow } from './read.js';
import { openScratchDatabase, type ScratchDatabase, type ScratchStatement } from './scratch-database.js';

// Registry reconciliation, headless: registry rows and the span's payments go into a scratch database and SQL
// pairs them by TransactionID. The rules (what "agrees", "different", "only in the ledger/registry" and "dated
// another day" mean) are in docs/registries.md; a TransactionID of two gateways matches its first payment.
const schema = `
CREATE TABLE registry_row (
  line INTEGER PRIMARY KEY,
  transaction_id TEXT NOT NULL UNIQUE,
  date TEXT NOT NULL,
  account TEXT NOT NULL,
  amount TEXT NOT NULL
);
CREATE TABLE registry_day (day TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE compared_day (day TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE TABLE ledger_payment (
  seq INTEGER PRIMARY KEY,
  transaction_id TEXT NOT NULL,
  day TEXT NOT NULL,
  account TEXT NOT NULL,
  amount TEXT NOT NULL,
  state TEXT NOT NULL,
  first_of_id INTEGER NOT NULL
);
CREATE INDEX ledger_payment_by_id ON ledger_payment (transaction_id);
-- The rules above, once: each ledger payment's verdict, beside the registry row it matched.
CREATE VIEW ledger_verdict AS
SELECT l.seq, l.transaction_id, l.day, l.account, l.amount, l.state,
  r.date AS registry_date, r.amount AS registry_amount,
  CASE
    WHEN r.line IS NULL THEN CASE
      WHEN l.state = 'failed' OR l.day NOT IN (SELECT day FROM compared_day) THEN 'agreed-or-not-compared'
      ELSE 'only-in-ledger' END
    WHEN r.date NOT IN (SELECT day FROM compared_day) THEN 'dated-another-day'
    WHEN l.state = 'success' AND same_decimal(r.amount, l.amount) THEN 'agreed'
    ELSE 'different'
  END AS verdict
FROM ledger_payment l LEFT JOIN registry_row r ON l.first_of_id AND r.transaction_id = l.transaction_id;
CREATE VIEW unmatched_row AS
SELECT line, transaction_id, date, account, amount, date IN (SELECT day FROM compared_day) AS compared
FROM registry_row r WHERE NOT EXISTS (SELECT 1 FROM ledger_payment l WHERE l.transaction_id = r.transaction_id);
`;

const findingLists = ['only-in-registry', 'only-in-ledger', 'different', 'dated-another-day'] as const;
export type FindingList = (typeof findingLists)[number];

export interface Finding {
  list: FindingList;
  transactionId: string;
  /** `YYYY-MM-DD`: the registry's date where it lists the payment, else the ledger's (local) day. */
  date: string;
  account: string;
  registryAmount: string | null;
  ledgerAmount: string | null;
  /** "paid" when the registry lists it. */
  registryState: 'paid' | null;
  ledgerState: TransactionState | null;
}

/** Per list: how many, and the exact sums of each side's amounts. */
export interface ListTally {
  count: number;
  registrySum: string;
  ledgerSum: string;
}

/** Rows and payments are written this many to a transaction: one a row would cost more than the row. */
const perTransaction = 4096;

interface RowOfLedger {
  transaction_id: string;
  day: string;
  account: string;
  amount: string;
  state: TransactionState;
  registry_date: string | null;
  registry_amount: string | null;
}

interface RowOfRegistry {
  transaction_id: string;
  date: string;
  account: string;
  amount: string;
}

export class RegistryComparison {
  readonly tallies: Record<FindingList, ListTally> = {
    'only-in-registry': { count: 0, registrySum: '0', ledgerSum: '0' },
    'only-in-ledger': { count: 0, registrySum: '0', ledgerSum: '0' },
    different: { count: 0, registrySum: '0', ledgerSum: '0' },
    'dated-another-day': { count: 0, registrySum: '0', ledgerSum: '0' },
  };
  /** Ledger payments that matched a row of a compared day and agree (known once `compare` is called). */
  agreed = 0;
  private readonly statements: Record<'row' | 'day' | 'firstLine' | 'has' | 'payment', ScratchStatement>;
  private inTransaction = 0;
  private lastDay: string | undefined;

  private constructor(private readonly scratch: ScratchDatabase) {
    const { database } = scratch;
    database.function('same_decimal', { deterministic: true }, (a, b) =>
      a === b || sameDecimal(String(a), String(b)) ? 1 : 0,
    );
    database.exec(schema);
    this.statements = {
      row: database.prepare(`INSERT INTO registry_row (line, transaction_id, date, account, amount)
        VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (transaction_id) DO NOTHING`),
      day: database.prepare('INSERT OR IGNORE INTO registry_day (day) VALUES (?1)'),
      firstLine: database.prepare('SELECT line FROM registry_row WHERE transaction_id = ?1'),
      has: database.prepare('SELECT 1 AS found FROM registry_row WHERE transaction_id = ?1'),
      payment: database.prepare(`INSERT INTO ledger_payment (transaction_id, day, account, amount, state, first_of_id)
        VALUES (?1, ?2, ?3, ?4, ?5, NOT EXISTS (SELECT 1 FROM ledger_payment WHERE transaction_id = ?1))`),
    };
  }

  /** A comparison in a scratch database of its own: `close` it in a `finally`, so none is left behind. */
  static open(): RegistryComparison {
    const scratch = openScratchDatabase('agentpay-registry-');
    try {
      return new RegistryComparison(scratch);
    } catch (error) {
      scratch.remove();
      throw error;
    }
  }

  /** A registry row; when its TransactionID was listed already, nothing is added: the first row's line is returned. */
  addRow(row: RegistryRow): number | undefined {
    this.begin();
    const { changes } = this.statements.row.run(row.line, row.transactionId, row.date, row.account, row.amount);
    if (changes === 0) return (this.statements.firstLine.get(row.transactionId) as { line: number }).line;
    // Rows come in date order: a day is written once, not once a row.
    if (row.date !== this.lastDay) this.statements.day.run(row.date);
    this.lastDay = row.date;
    this.written();
    return undefined;
  }

  /** One page of the ledger's payments of the span, in the ledger's order. */
  addPayments(payments: readonly PaymentRow[]): void {
    for (const { transactionId, at, account, amount, state } of payments) {
      this.begin();
      this.statements.payment.run(transactionId, localDay(new Date(at)), account, amount, state);
      this.written();
    }
  }

  has(transactionId: string): boolean {
    this.commit();
    return this.statements.has.get(transactionId) !== undefined;
  }

  /** The days the registry's rows are dated, in order. */
  registryDays(): string[] {
    this.commit();
    const rows = this.scratch.database.prepare('SELECT day FROM registry_day ORDER BY day').all();
    return rows.map((row) => row.day as string);
  }

  // Fixes the days compared once every payment is in: the ledger's other days count only when the registry
  // lists them; the registry's other days are listed apart.
  compare(days: readonly string[]): void {
    this.commit();
    const { database } = this.scratch;
    database.exec('DELETE FROM compared_day');
    const insert = database.prepare('INSERT OR IGNORE INTO compared_day (day) VALUES (?1)');
    for (const day of days) insert.run(day);
    const agreed = database.prepare("SELECT count(*) AS n FROM ledger_verdict WHERE verdict = 'agreed'").get();
    this.agreed = Number(agreed?.n);
  }

  // The lists, counted as they go: only in the registry, only in the ledger, different, then rows of another
  // day a payment matched and those none did.
  *findings(): Generator<Finding> {
    const { database } = this.scratch;
    const unmatched = database.prepare('SELECT * FROM unmatched_row WHERE compared = ?1 ORDER BY line');
    const ledgerSide = database.prepare('SELECT * FROM ledger_verdict WHERE verdict = ?1 ORDER BY seq');
    const rowsOf = (compared: 0 | 1) => unmatched.iterate(compared) as Iterable<unknown> as Iterable<RowOfRegistry>;
    for (const row of rowsOf(1)) yield this.count(registrySide('only-in-registry', row));
    for (const list of ['only-in-ledger', 'different', 'dated-another-day'] as const)
      for (const row of ledgerSide.iterate(list) as Iterable<unknown> as Iterable<RowOfLedger>)
        yield this.count(ledgerFinding(list, row));
    for (const row of rowsOf(0)) yield this.count(registrySide('dated-another-day', row));
  }

  /** Removes the scratch database. */
  close(): void {
    this.scratch.remove();
  }

  private begin(): void {
    if (!this.scratch.database.isTransaction) this.scratch.database.exec('BEGIN');
  }

  private written(): void {
    if (++this.inTransaction === perTransaction) this.commit();
  }

  private commit(): void {
    if (this.scratch.database.isTransaction) this.scratch.database.exec('COMMIT');
    this.inTransaction = 0;
  }

  private count(finding: Finding): Finding {
    const tally = this.tallies[finding.list];
    tally.count++;
    // Amounts the ledger holds are plain decimals (money.ts parseAmount); anything else is left
    // out of a sum rather than guessed.
    if (finding.registryAmount !== null) tally.registrySum = addDecimals(tally.registrySum, finding.registryAmount);
    if (finding.ledgerAmount !== null && isPlainDecimal(finding.ledgerAmount))
      tally.ledgerSum = addDecimals(tally.ledgerSum, finding.ledgerAmount);
    return finding;
  }
}

function registrySide(list: FindingList, row: RowOfRegistry): Finding {
  const { transaction_id: transactionId, date, account, amount } = row;
  return {
    list,
    transactionId,
    date,
    account,
    registryAmount: amount,
    ledgerAmount: null,
    registryState: 'paid',
    ledgerState: null,
  };
}

function ledgerFinding(list: FindingList, row: RowOfLedger): Finding {
  const listed = row.registry_amount !== null;
  return {
    list,
    transactionId: row.transaction_id,
    date: listed ? row.registry_date! : row.day,
    account: row.account,
    registryAmount: row.registry_amount,
    ledgerAmount: row.amount,
    registryState: listed ? 'paid' : null,
    ledgerState: row.state,
  };
}
