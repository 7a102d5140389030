import { AgentpayError, ExitCode, InterruptedError, TransactionPendingError, UsageError } from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import type { LedgerEntry } from '../../ledger/ledger.js';
import type { Shift } from '../../ledger/team-ledger.js';
import {
  chainBreak,
  firstPreviousHash,
  type ShiftSummary,
  shiftSummary,
  type ZReportContent,
} from '../../ledger/z-report.js';
import { defaultGraceSeconds } from '../../options/purchase.js';
import { optionRecord, switchOption } from '../../options/values.js';
import { teamLedgerOf, type WithTeam } from '../../purchase/team-ledger.js';
import { t } from '../../run-scope.js';
import type { CommandContext } from '../context.js';
import { dataFormatOption, writeCsvLine } from '../output-format.js';

/** A Z-report is not as it was made (shift verify): exit 1, naming the first that is not. */
export class ZReportChainError extends AgentpayError {
  override name = 'ZReportChainError';
  constructor(message: string, options: { hint?: string } = {}) {
    super(message, ExitCode.declined, options);
  }
}

/** `agentpay shift open|x|close|verify` (docs/desk-safety.md, Shifts): thin, over the ledger's team.shifts. */

const shiftLedgerOf = (context: CommandContext) => teamLedgerOf(context, 'shifts');

/** This role's open shift, or a refusal naming how to open one (exit 2). */
async function currentShift(context: CommandContext, ledger: WithTeam): Promise<Shift> {
  const shift = await ledger.team.shifts.current();
  if (shift !== undefined) return shift;
  throw new UsageError(t().shifts.noShift(ledger.recordsAs ?? context.settings.operator.value), {
    hint: t().shifts.noShiftHint,
  });
}

/** The shift's payments: those the database made members of it as their intents were written. */
async function shiftEntries(ledger: WithTeam, shift: Shift): Promise<LedgerEntry[]> {
  const entries: LedgerEntry[] = [];
  for await (const entry of await ledger.entries({ shift: shift.seq })) entries.push(entry);
  return entries;
}

/** The shift's payments and its open requests, summed. */
async function summaryOf(ledger: WithTeam, shift: Shift, until: string): Promise<ShiftSummary> {
  const entries = await shiftEntries(ledger, shift);
  const awaiting = await ledger.team.shifts.awaitingRequests(shift);
  return shiftSummary({ operator: shift.operator, openedAt: shift.openedAt, until }, entries, awaiting);
}

/** `shift close --settle`: the shift's payments not final asked about by Status first, as
 * `reconcile` asks (commands/reconcile/settle-entry.ts), each answer recorded; those of another
 * gateway than the settings name are left as they are. */
async function settleOpen(context: CommandContext, ledger: WithTeam, shift: Shift): Promise<void> {
  const open = (await shiftEntries(ledger, shift)).filter(
    (entry) =>
      entry.outcome === undefined || entry.outcome.view.state === 'pending' || entry.outcome.view.state === 'unknown',
  );
  if (open.length === 0) return;
  const { settleEntry } = await import('../reconcile/settle-entry.js');
  const session = await context.openGateway();
  try {
    for (const entry of open) {
      // A signal cuts the look-up in flight short: the rest are not asked (runShiftClose says so).
      if (stoppedBy(context.interrupts) !== undefined) break;
      if (entry.intent.gateway !== session.gateway || entry.intent.agentId !== session.agentId) continue;
      const settled = await settleEntry(session, entry, context.settings.codes.table, defaultGraceSeconds * 1000);
      if (!settled.learned) continue;
      const { transactionId, gateway, agentId } = entry.intent;
      const at = new Date().toISOString();
      await ledger.recordOutcome({
        kind: 'outcome',
        transactionId,
        gateway,
        agentId,
        at,
        source: 'reconcile',
        view: settled.view,
      });
    }
  } finally {
    await session.close();
  }
}

async function show(
  context: CommandContext,
  report: ShiftSummary | (ZReportContent & { hash: string }),
  raw: unknown,
): Promise<void> {
  const { out } = context;
  const { format, bom, notation } = dataFormatOption(optionRecord(raw), out);
  if (format === 'json') return out.data(JSON.stringify(report));
  const render = await import('../../render/shift-report.js');
  if (format === 'csv') for (const line of render.shiftTotalsCsv(report, { bom, ...notation })) writeCsvLine(out, line);
  else out.data(render.shiftReportText(report, t()));
}

export async function runShiftOpen(_raw: unknown, context: CommandContext): Promise<void> {
  const ledger = await shiftLedgerOf(context);
  const shift = await ledger.team.shifts.open();
  const { out } = context;
  if (out.json) out.data(JSON.stringify({ operator: shift.operator, openedAt: shift.openedAt }));
  else {
    const { localTimeText } = await import('../../render/receipt.js');
    const at = localTimeText(shift.openedAt, -new Date(shift.openedAt).getTimezoneOffset(), t());
    out.note(t().shifts.opened(shift.operator, at));
  }
}

export async function runShiftX(raw: unknown, context: CommandContext): Promise<void> {
  const ledger = await shiftLedgerOf(context);
  const shift = await currentShift(context, ledger);
  await show(context, await summaryOf(ledger, shift, await ledger.team.shifts.now()), raw);
}

/** Closes the shift with the next Z-report: refused (exit 3) while a payment of it is not final or
 * a request awaits approval, unless --carry-over carries them; --settle asks the gateway first. */
export async function runShiftClose(raw: unknown, context: CommandContext): Promise<void> {
  const carryOver = switchOption(optionRecord(raw).carryOver, '--carry-over');
  const settle = switchOption(optionRecord(raw).settle, '--settle');
  const ledger = await shiftLedgerOf(context);
  const shift = await currentShift(context, ledger);
  const store = ledger.team.shifts;
  if (settle) await settleOpen(context, ledger, shift);
  // Stopped while settling: what was learned is recorded, the shift stays open (exit 130 or 143).
  const signal = stoppedBy(context.interrupts);
  if (signal !== undefined) throw new InterruptedError(signal);
  // A payment that joins the shift while its report is made fails the database's count: made again.
  for (let attempt = 1; ; attempt++) {
    const summary = await summaryOf(ledger, shift, await store.now());
    if (summary.open.length > 0 && !carryOver) {
      const items = summary.open.map((item) => t().shifts.openItem(item.transactionId, item.state)).join(', ');
      throw new TransactionPendingError(t().shifts.closeRefused(items), { hint: t().shifts.closeRefusedHint });
    }
    const last = await store.lastZReport();
    const content: ZReportContent = {
      number: (last?.number ?? 0) + 1,
      previousHash: last?.hash ?? firstPreviousHash,
      ...summary,
      carried: summary.open,
    };
    const closed = await store.close(shift, content, attempt === 3);
    if (closed === 'raced') continue;
    if (!context.out.json) context.out.note(t().shifts.closed(content.number, closed.hash));
    return show(context, { ...content, hash: closed.hash }, raw);
  }
}

export async function runShiftVerify(_raw: unknown, context: CommandContext): Promise<void> {
  const ledger = await shiftLedgerOf(context);
  const reports = await ledger.team.shifts.zReports();
  const broken = chainBreak(reports);
  const { out } = context;
  if (out.json)
    out.data(JSON.stringify({ reports: reports.length, intact: broken === undefined, break: broken ?? null }));
  if (broken === undefined) {
    if (!out.json) out.note(t().shifts.chainIntact(reports.length));
    return;
  }
  throw new ZReportChainError(t().shifts.chainBroken(broken.number, t().shifts.breaks[broken.why] ?? broken.why), {
    hint: t().shifts.chainBrokenHint,
  });
}
