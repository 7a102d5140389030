import { errnoCodeOf, LocalStorageError, UsageError } from '../../errors.js';
import { t } from '../../i18n/current.js';
import { type CompactionReport, compactJournal } from '../../ledger/file/compact.js';
import type { CommandContext } from '../context.js';

function summary(report: CompactionReport): string {
  const said = t().ledger;
  if (report.cuts.length === 0) return said.nothingToCompact(report.journal);
  const parts = [
    said.archived(report.archived.transactions, report.archived.records, `${report.journal}.archive/`),
    said.kept(report.open.transactions, `${report.open.file}`),
  ];
  if (report.damaged.lines > 0) parts.push(said.damaged(report.damaged.lines, `${report.damaged.file}`));
  return said.compacted(report.journal, parts.join('; '));
}

/** The journal file to compact: a PostgreSQL ledger has none. */
function journalFileOf(settings: CommandContext['settings']): string {
  const location = settings.ledger.value;
  if (location.kind === 'postgres') {
    throw new UsageError(t().commands.compactNotPostgres, {
      hint: t().commands.compactNotPostgresHint,
    });
  }
  return location.path;
}

/**
 * `agentpay ledger compact`: the journal file's closed transactions to its dated archive (the
 * readers still search it), its damaged lines to <journal>.damaged. Safe while payments are
 * made and while another compaction runs (docs/reliability.md, "Compacting the journal").
 */
export async function runCompact(_options: unknown, context: CommandContext): Promise<void> {
  const { out } = context;
  const journal = journalFileOf(context.settings);
  let report: CompactionReport;
  try {
    report = await compactJournal(journal);
  } catch (error) {
    if (errnoCodeOf(error) === undefined || error instanceof LocalStorageError) throw error;
    throw new LocalStorageError('compact the journal', (error as NodeJS.ErrnoException).path ?? journal, error, {
      consequence: t().commands.compactNothingLost,
    });
  }
  if (out.json) out.data(JSON.stringify(report));
  else out.note(summary(report));
}
