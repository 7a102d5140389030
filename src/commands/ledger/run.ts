import { statSync } from 'node:fs';
import { DeskRuleRefusedError } from '../../desk-rule-error.js';
import { errnoCodeOf, LocalStorageError, UsageError } from '../../errors.js';
import { untilInterrupted } from '../../interrupts.js';
import { isLegacyJournal, legacyJournalRecords } from '../../ledger/journal-import/journal-records.js';
import { type JournalRecord, lineOf } from '../../ledger/record-format.js';
import type { LedgerAdministration } from '../../ledger/team-ledger.js';
import { optionRecord } from '../../options/values.js';
import { playMoneyGateways } from '../../protocol/gateway-identity.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';

/** The team ledger the settings name, as its administrator reaches it; a file is told in one line it has none. */
export async function administration(context: CommandContext, what: string): Promise<LedgerAdministration> {
  const location = context.settings.ledger.value;
  if (location.kind !== 'postgres') throw new UsageError(t().commands.postgresOnly(what, location.shown));
  const { openLedgerAdministration } = await import('../../ledger/open-ledger.js');
  return openLedgerAdministration(location, context.settings.env);
}

/** `agentpay ledger migrate`: the schema migrations not yet applied, under the same advisory lock as on first use. */
export async function runMigrate(_raw: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const admin = await administration(context, 'migrate');
  try {
    const applied = await admin.migrate();
    const { shown, schemaVersion } = admin;
    if (out.json) out.data(JSON.stringify({ ledger: shown, version: schemaVersion, applied }));
    else if (applied.length === 0) out.note(t().ledger.upToDate(shown, schemaVersion));
    else for (const { version, name } of applied) out.note(t().ledger.applied(shown, version, name));
  } finally {
    await admin.close();
  }
}

/** `agentpay ledger import <journal>`: an earlier agentpay's journal into the ledger, idempotent. */
export async function runImport(raw: unknown, context: CommandContext): Promise<void> {
  const path = String(optionRecord(raw).journal);
  const { out } = context;
  try {
    if (!statSync(path).isFile())
      throw new UsageError(t().commands.notAFile(path), { hint: t().commands.notAFileHint });
    // A ledger database, or another program's file, read as journal lines would be all "damaged".
    if (!isLegacyJournal(path))
      throw new UsageError(t().ledger.notAJournal(path), { hint: t().ledger.notAJournalHint });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    // A compaction killed once it had cut the journal may have left no J: its other files are read.
    if (errnoCodeOf(error) !== 'ENOENT' || !isLegacyJournal(path))
      throw new LocalStorageError('read the journal', path, error);
  }
  const ledger = await context.openLedger();
  let skipped = 0;
  const warn = (message: string) => {
    skipped++;
    out.warn(message);
  };
  // Play money stays out of the real books: only a play ledger (--sandbox, --replay) takes it.
  const left = { playMoney: 0 };
  const records = context.settings.sandbox
    ? legacyJournalRecords(path, warn)
    : withoutPlayMoney(legacyJournalRecords(path, warn), left);
  // Stopped between two records: what was committed stays, and importing again adds only the rest.
  // Only a journal read whole is remembered as imported: one with damaged lines is named again.
  const { added, conflicts } = await ledger
    .importRecords(untilInterrupted(records, context.interrupts))
    .catch((error: unknown) => {
      // The rule's hint is a payment's (--request-approval, `shift open`): an import has none to give.
      if (!(error instanceof DeskRuleRefusedError)) throw error;
      throw new DeskRuleRefusedError(error.rule, error.message, { cause: error.cause });
    });
  if (skipped === 0) await ledger.rememberImported?.(path);
  for (const transactionId of conflicts) {
    out.warn(t().ledger.otherPurchase(transactionId, path));
  }
  if (left.playMoney > 0) out.warn(t().ledger.playMoneyLeftOut(left.playMoney, path));
  const { playMoney } = left;
  if (out.json) out.data(JSON.stringify({ journal: path, ledger: ledger.location.shown, added, conflicts, playMoney }));
  else out.note(t().ledger.imported(path, ledger.location.shown, added));
}

/** The records of real gateways, counting those of play money passed over. */
async function* withoutPlayMoney(
  records: AsyncIterable<JournalRecord>,
  left: { playMoney: number },
): AsyncGenerator<JournalRecord> {
  for await (const record of records) {
    if (playMoneyGateways.has(record.gateway)) left.playMoney++;
    else yield record;
  }
}

/** `agentpay ledger export`: the ledger as journal lines on stdout. */
export async function runExport(_raw: unknown, context: CommandContext): Promise<void> {
  const ledger = await context.openLedger();
  let lines = 0;
  for await (const record of untilInterrupted(ledger.exportRecords(), context.interrupts)) {
    context.out.data(lineOf(record));
    await context.out.drainedNowAndThen(++lines);
  }
}
