import {
  AgentpayError,
  ExitCode,
  type ExitCodeValue,
  InterruptedError,
  type LocalStorageError,
  mostSevere,
} from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import type { JournalEntry, Ledger } from '../../ledger/ledger.js';
import { dayOption, localDay, startOfDay } from '../../local-day.js';
import type { JobFigures } from '../../metrics/exposition.js';
import type { Output } from '../../output.js';
import { journalGatewayOf } from '../../purchase/session.js';
import { type Finding, RegistryComparison } from '../../registry/compare.js';
import type { RegistryLayout } from '../../registry/layout.js';
import { type AnotherDay, loadRegistry, registryLayoutOf } from '../../registry/load-registry.js';
import { RegistryFileError, type RegistrySummary } from '../../registry/read.js';
import { shownText } from '../../render/sanitize.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import type { ReconcileOptions } from './options.js';
import { batchSettling, settleBatch } from './settle-batch.js';
import { unrecordedFailure } from './settle-entry.js';

// The ledger's window: the day before the first compared to the day after the last, so a payment just before
// midnight dated the next day still matches; outside days count only when the registry lists them.
interface LedgerWindow {
  days: ReadonlySet<string>;
  since: Date;
  until: number;
}

/** `days`: in order. */
function windowOf(days: readonly string[]): LedgerWindow | undefined {
  if (days.length === 0) return undefined;
  return { days: new Set(days), since: startOfDay(days[0]!, -1), until: startOfDay(days.at(-1)!, 2).getTime() };
}

/** Whose payments the registry lists: the configured gateway and agent, when set. */
async function ownerOf(context: CommandContext): Promise<{ gateway: string | undefined; agentId: string | undefined }> {
  const { settings } = context;
  const agentId = settings.sandbox
    ? (await import('../../sandbox/catalogue.js')).sandboxCredentials.agentId
    : settings.agentId?.value;
  return { gateway: journalGatewayOf(settings, settings.baseUrl?.value), agentId };
}

/** The options of `reconcile --registry` (run.ts checks which go together). */
type RegistryRun = ReconcileOptions & { registry: string };

// `--settle`: Status for the window's open transactions the registry lists or that fall on a compared day,
// recorded as reconcile does (claimed in batches). The exit codes of gateway trouble, and any unrecorded failure.
async function settleOpen(
  options: RegistryRun,
  context: CommandContext,
  ledger: Ledger,
  comparison: RegistryComparison,
  window: LedgerWindow,
) {
  const { out } = context;
  const session = await context.openGateway({ connections: options.concurrency });
  const troubles: ExitCodeValue[] = [];
  const unrecorded = { count: 0, failure: undefined as unknown };
  const wanted = ({ intent }: JournalEntry) =>
    comparison.has(intent.transactionId) ||
    (Date.parse(intent.at) < window.until && window.days.has(localDay(new Date(intent.at))));
  try {
    const how = batchSettling(context, session, options);
    for await (const batch of ledger.claimOpen(
      { gateway: session.gateway, agentId: session.agentId },
      { since: window.since },
    )) {
      // A line is shown once its outcome is in the ledger (settle-batch.ts).
      const done = await settleBatch(batch, batch.entries.filter(wanted), how, ({ view, exitCode }) => {
        if (exitCode >= ExitCode.unreachable) troubles.push(exitCode);
        out.note(t().registry.settled(shownText(view.transactionId), t().states[view.state], shownText(view.message)));
      });
      unrecorded.count += done.unrecorded;
      unrecorded.failure ??= done.failure;
      if (how.stop.aborted) break;
    }
  } finally {
    await session.close();
  }
  return { troubles, failure: unrecordedFailure(unrecorded, ledger, 'in the lists') };
}

/** The ledger's payments of the window, streamed into the comparison's table a page at a time. */
async function loadLedger(
  comparison: RegistryComparison,
  ledger: Ledger,
  window: LedgerWindow,
  context: CommandContext,
): Promise<void> {
  const { out } = context;
  const owner = await ownerOf(context);
  if (owner.gateway === undefined) out.note(out.errorStyle.dim(t().registry.noGateway));
  for await (const payments of ledger.payments({ since: window.since, until: new Date(window.until), ...owner }))
    comparison.addPayments(payments);
}

/** The lists on stdout in the format asked for: only in the registry, only in the ledger, different. */
async function writeFindings(findings: Iterable<Finding>, options: RegistryRun, out: Output): Promise<void> {
  const format = options.format ?? (out.json ? 'json' : 'table');
  const render = await import('../../render/registry.js');
  // A list may be as long as the registry: a slow reader holds it back rather than it queueing in memory.
  let written = 0;
  if (format === 'json') {
    for await (const finding of findings) {
      out.data(render.registryFindingJson(finding));
      if (written++ % 1024 === 1023) await out.drained();
    }
  } else if (format === 'csv') {
    const { csvHeader, csvRow } = await import('../../render/csv.js');
    // out.data adds the line end; the CSV writer's own (CRLF) is kept but for its last \n.
    const notation = { delimiter: options.delimiter, decimalComma: options.decimalComma };
    out.data(csvHeader(render.registryCsvColumns, { bom: options.bom, ...notation }).slice(0, -1));
    for await (const finding of findings) {
      out.data(csvRow(render.registryCsvColumns, finding, notation).slice(0, -1));
      if (written++ % 1024 === 1023) await out.drained();
    }
  } else {
    // A table's widths need every row: a person's table is short, a long list asks for --format.
    const rows: Finding[] = [];
    for await (const finding of findings) rows.push(finding);
    const table = render.registryTableLines(rows, { style: out.style, width: out.tableWidth }, t());
    for (const line of table.lines) out.data(line);
    if (table.hidden.length > 0) out.note(out.errorStyle.dim(t().hiddenColumns(table.hidden.join(', '))));
  }
}

// A registry dated wholly another day than `--date`: one line and exit 2, before the ledger is opened.
function refuseWhollyAnotherDay(
  registry: string,
  read: RegistrySummary,
  dates: readonly string[],
  anotherDay: AnotherDay,
  day: string,
): void {
  if (anotherDay.first === undefined || anotherDay.rows < read.rows) return;
  const shown = dates.length <= 3 ? dates.join(', ') : t().registry.daySpan(dates[0]!, dates.at(-1)!, dates.length);
  throw new RegistryFileError(t().registry.wholly(registry, shown, day), {
    hint: t().registry.whollyHint(anotherDay.first.date, day),
  });
}

/** `agentpay reconcile --registry <file>`: the provider's registry against the ledger; exit 0 when they agree, 1 when not. */
export async function runRegistryReconcile(
  options: RegistryRun,
  context: CommandContext,
  figures: JobFigures,
): Promise<void> {
  const layout = await registryLayoutOf(options.registryFormat, options.registry);
  const comparison = RegistryComparison.open();
  try {
    await compareRegistry(options, context, figures, layout, comparison);
  } finally {
    comparison.close();
  }
}

async function compareRegistry(
  options: RegistryRun,
  context: CommandContext,
  figures: JobFigures,
  layout: RegistryLayout,
  comparison: RegistryComparison,
): Promise<void> {
  const { out } = context;
  const day = options.date === undefined ? undefined : dayOption(options.date);
  const { read, anotherDay } = await loadRegistry(comparison, options.registry, layout, day);
  const registryDays = comparison.registryDays();
  if (day !== undefined) refuseWhollyAnotherDay(options.registry, read, registryDays, anotherDay, day);
  const days = day === undefined ? registryDays : [day];
  const window = windowOf(days);
  const ledger = await context.openLedger();
  const settled =
    options.settle && window !== undefined
      ? await settleOpen(options, context, ledger, comparison, window)
      : { troubles: [], failure: undefined };
  // Stopped while settling: the answers learned are recorded (and noted); no lists from half a settle.
  const signal = stoppedBy(context.interrupts);
  if (signal !== undefined && settled.failure === undefined) throw new InterruptedError(signal);

  if (window !== undefined) await loadLedger(comparison, ledger, window, context);
  comparison.compare(days);
  await writeFindings(comparison.findings(), options, out);
  const { registrySummaryLines } = await import('../../render/registry.js');
  const summary = {
    registry: options.registry,
    rows: read.rows,
    sum: read.sum,
    days,
    agreed: comparison.agreed,
    tallies: comparison.tallies,
  };
  for (const line of registrySummaryLines(summary, t())) out.note(line);
  if (day !== undefined && anotherDay.first !== undefined) {
    const { line, date } = anotherDay.first;
    out.warn(t().registry.firstAnotherDay(options.registry, line, date, day, anotherDay.rows));
  }
  const { tallies } = comparison;
  figures.registryRows = {
    only_in_registry: tallies['only-in-registry'].count,
    only_in_ledger: tallies['only-in-ledger'].count,
    different: tallies.different.count,
    dated_another_day: tallies['dated-another-day'].count,
    agreeing: comparison.agreed,
  };
  finish(comparison, settled, day);
}

// The exit code: 0 when the sides agree, 1 when a list is not empty; gateway trouble (4, 5) or an answer recorded
// nowhere (6) weighs more.
function finish(
  comparison: RegistryComparison,
  settled: { troubles: ExitCodeValue[]; failure: LocalStorageError | undefined },
  day: string | undefined,
): void {
  if (settled.failure !== undefined) throw settled.failure;
  const { 'dated-another-day': anotherDay, ...lists } = comparison.tallies;
  const disagreeing = Object.values(lists).reduce((sum, tally) => sum + tally.count, 0);
  const looked = disagreeing + anotherDay.count;
  const exitCode = mostSevere([looked > 0 ? ExitCode.declined : ExitCode.success, ...settled.troubles]);
  if (exitCode === ExitCode.success) return;
  const said = t().registry;
  const parts = [
    disagreeing > 0 ? said.disagree(disagreeing) : anotherDay.count === 0 ? said.agree : undefined,
    anotherDay.count > 0 && day !== undefined ? said.anotherDay(anotherDay.count, day) : undefined,
    settled.troubles.length > 0 ? said.notSettled(settled.troubles.length) : undefined,
  ];
  const hint =
    looked === 0 ? said.settleHint : disagreeing === 0 && day !== undefined ? said.anotherDayHint(day) : said.listsHint;
  throw new AgentpayError(parts.filter((part) => part !== undefined).join('; '), exitCode, { hint });
}
