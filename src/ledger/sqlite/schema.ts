import { UsageError } from '../../errors.js';
import { t } from '../../run-scope.js';
import { beginWrite, type WriteTurnPlace, whenFree } from './write-turn.js';

// postgres/schema.ts in SQLite's spelling, by `PRAGMA user_version`, triggers too. SQLite's own tables:
// `agentpay_leases` (PostgreSQL's row locks) and `agentpay_imports` (earlier journals loaded, open-ledger.ts).
const migrations: readonly string[] = [
  `
CREATE TABLE agentpay_transactions (
  seq INTEGER PRIMARY KEY,
  gateway TEXT NOT NULL,
  agent_id TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  service TEXT NOT NULL,
  account TEXT NOT NULL,
  amount TEXT NOT NULL,
  currency TEXT NOT NULL,
  invoice_id TEXT,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  host TEXT NOT NULL,
  voucher TEXT,
  shift_seq INTEGER,
  CONSTRAINT agentpay_transactions_owner UNIQUE (gateway, agent_id, transaction_id)
) STRICT;
CREATE TABLE agentpay_records (
  seq INTEGER PRIMARY KEY,
  record_id TEXT NOT NULL UNIQUE,
  transaction_seq INTEGER NOT NULL REFERENCES agentpay_transactions (seq),
  kind TEXT NOT NULL CHECK (kind IN ('attempt', 'outcome')),
  at TEXT NOT NULL,
  source TEXT CHECK (source IN ('payment', 'settle', 'reconcile')),
  state TEXT CHECK (state IN ('success', 'failed', 'pending', 'unknown')),
  view TEXT CHECK (view IS NULL OR json_valid(view)),
  answers_attempt INTEGER,
  operator TEXT NOT NULL,
  host TEXT NOT NULL,
  overrides TEXT CHECK (overrides IS NULL OR json_valid(overrides)),
  CHECK ((kind = 'attempt') = (view IS NULL))
) STRICT;
CREATE INDEX agentpay_records_by_transaction ON agentpay_records (transaction_seq, seq);
CREATE INDEX agentpay_transactions_by_time ON agentpay_transactions (at);
CREATE INDEX agentpay_attempts_by_time ON agentpay_records (at) WHERE kind = 'attempt';
CREATE TABLE agentpay_open (
  transaction_seq INTEGER PRIMARY KEY REFERENCES agentpay_transactions (seq)
) STRICT;
CREATE TABLE agentpay_leases (
  transaction_seq INTEGER PRIMARY KEY REFERENCES agentpay_transactions (seq),
  holder TEXT NOT NULL,
  pid INTEGER NOT NULL,
  until TEXT NOT NULL
) STRICT;
CREATE TABLE agentpay_imports (
  journal TEXT PRIMARY KEY,
  at TEXT NOT NULL
) STRICT;
CREATE TRIGGER agentpay_transactions_no_update BEFORE UPDATE ON agentpay_transactions
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: UPDATE on agentpay_transactions refused'); END;
CREATE TRIGGER agentpay_transactions_no_delete BEFORE DELETE ON agentpay_transactions
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: DELETE on agentpay_transactions refused'); END;
CREATE TRIGGER agentpay_records_no_update BEFORE UPDATE ON agentpay_records
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: UPDATE on agentpay_records refused'); END;
CREATE TRIGGER agentpay_records_no_delete BEFORE DELETE ON agentpay_records
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: DELETE on agentpay_records refused'); END;
CREATE TRIGGER agentpay_records_close_open AFTER INSERT ON agentpay_records
  WHEN NEW.kind = 'outcome' AND (NEW.state = 'success' OR (NEW.state = 'failed' AND (NEW.answers_attempt IS NULL
    OR NOT EXISTS (SELECT 1 FROM agentpay_records a
      WHERE a.transaction_seq = NEW.transaction_seq AND a.kind = 'attempt' AND a.seq > NEW.answers_attempt))))
  BEGIN DELETE FROM agentpay_open WHERE transaction_seq = NEW.transaction_seq; END;
`,
  // The rows each bulk run keeps (postgres/bulk-runs-schema.ts), append-only as the records are; and
  // the payments to an account found by an index, so a look-back reads those, not the window's.
  `
CREATE TABLE agentpay_bulk_rows (
  run_key TEXT NOT NULL,
  line INTEGER NOT NULL,
  row_key TEXT,
  service TEXT NOT NULL,
  account TEXT NOT NULL,
  currency TEXT NOT NULL,
  invoice_id TEXT,
  invoice_position INTEGER,
  amount TEXT,
  transaction_id TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (run_key, line)
) STRICT, WITHOUT ROWID;
CREATE INDEX agentpay_transactions_by_account ON agentpay_transactions (gateway, agent_id, account);
CREATE TRIGGER agentpay_bulk_rows_no_update BEFORE UPDATE ON agentpay_bulk_rows
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: UPDATE on agentpay_bulk_rows refused'); END;
CREATE TRIGGER agentpay_bulk_rows_no_delete BEFORE DELETE ON agentpay_bulk_rows
  BEGIN SELECT RAISE(ABORT, 'agentpay ledger records are append-only: DELETE on agentpay_bulk_rows refused'); END;
`,
];

const sqliteSchemaVersion = migrations.length;
/** `PRAGMA application_id` of an agentpay ledger ("APLG"): another program's SQLite file is not one. */
const agentpayApplicationId = 0x41504c47;

/** Refuses a SQLite file that is not an agentpay ledger, before anything of it is changed. */
function refuseForeign(place: WriteTurnPlace): void {
  const { database } = place;
  const id = Number((database.prepare('PRAGMA application_id').get() as { application_id: number }).application_id);
  if (id === agentpayApplicationId) return;
  // Unmarked: a new file, or one with agentpay's tables (made before ledgers were marked).
  const tables = database
    .prepare(
      "SELECT count(*) AS n, count(*) FILTER (WHERE name = 'agentpay_transactions') AS ours FROM sqlite_schema WHERE type = 'table'",
    )
    .get() as { n: number; ours: number };
  if (id === 0 && (Number(tables.n) === 0 || Number(tables.ours) === 1)) return;
  throw new UsageError(t().ledger.notADatabase(place.path), { hint: t().ledger.notADatabaseHint });
}

// Applies what is missing in one write transaction (a second process waits, then finds it done); a file a
// later agentpay migrated is refused rather than written in a shape this one does not know.
export async function ensureSqliteSchema(place: WriteTurnPlace, shown: string): Promise<void> {
  const { database } = place;
  const read = { action: 'open the ledger' } as const;
  await whenFree(place, () => refuseForeign(place), read);
  // WAL is the file's own setting, kept once set: set when the file is new.
  const mode = await whenFree(place, () => database.prepare('PRAGMA journal_mode').get(), read);
  if ((mode as { journal_mode: string }).journal_mode !== 'wal')
    await whenFree(place, () => database.exec('PRAGMA journal_mode = WAL'));
  const versionOf = () =>
    Number((database.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if ((await whenFree(place, versionOf, read)) === sqliteSchemaVersion) return;
  await beginWrite(place);
  try {
    const version = versionOf();
    if (version > sqliteSchemaVersion)
      throw new UsageError(t().ledger.newerSchema(shown, version, sqliteSchemaVersion), {
        hint: t().ledger.newerSchemaHint,
      });
    for (const [index, sql] of migrations.entries()) if (index + 1 > version) database.exec(sql);
    database.exec(`PRAGMA user_version = ${sqliteSchemaVersion}`);
    database.exec(`PRAGMA application_id = ${agentpayApplicationId}`);
    database.exec('COMMIT');
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}
