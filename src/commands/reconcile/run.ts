import { AgentpayError, ExitCode, type ExitCodeValue, LocalStorageError } from '../../errors.js';
import type { JournalEntry } from '../../journal/ledger.js';
import type { Ledger, Owner, OwnerCount } from '../../ledger/ledger.js';
import { concurrencyOption, optionalText, optionRecord, wholeNumberOption } from '../../options/values.js';
import { type CodeTable, classifyCode } from '../../protocol/codes.js';
import { isRefusedLookUp, speaksOfPayment, type TransactionView, unknownView, viewOfStatusAnswer } from '../../protocol/transaction-view.js';
import { answerText } from '../../purchase/outcome.js';
import { classifyHint } from '../../settings/code-lists.js';
import { BatchTally } from '../batch-tally.js';
import { type CommandContext, type GatewaySession, journalGatewayOf } from '../context.js';
import { forEachOrdered } from '../ordered-pool.js';
import { parseSince } from '../since.js';

interface ReconcileOptions {
  since: string | undefined;
  /** Seconds before "not found" becomes final. */
  grace: number;
  concurrency: number;
}

function parseReconcileOptions(raw: unknown): ReconcileOptions {
  const options = optionRecord(raw);
  return {
    since: optionalText(options.since, '--since'),
    grace: wholeNumberOption(options.grace, { fallback: '120', maxDigits: 6, message: '--grace takes a whole number of seconds' }),
    concurrency: concurrencyOption(options.concurrency),
  };
}

interface Settled {
  entry: JournalEntry;
  view: TransactionView;
  exitCode: ExitCodeValue;
  /** Whether the answer told us something worth a journal line. */
  learned: boolean;
  /** The gateway's code when the table does not classify it, to list at the end. */
  unclassified?: string;
}

/**
 * The exit code of a settled payment, as `reconcile` reports it: a refusal closes the entry
 * and is work done, success (status, whose refusal is "declined", has its own table).
 */
const reconcileExitCodeOfState = { success: ExitCode.success, failed: ExitCode.success, pending: ExitCode.pendingOrUnknown, unknown: ExitCode.pendingOrUnknown };

function sentFieldsOf(entry: JournalEntry) {
  const { intent } = entry;
  return { transactionId: intent.transactionId, service: intent.service, account: intent.account, amount: intent.amount, currency: intent.currency };
}

/**
 * Asks Status about one open journal entry. Only a final code closes it: 10, a failedCodes
 * code about the transaction, or a notFoundCodes code once the intent is older than the grace
 * period (a Payment still on its way may yet arrive) and the gateway never answered about it
 * (a lagging gateway may lose sight of a payment it took). A code the table does not classify,
 * or a refused look-up, leaves it open.
 */
async function settleEntry(session: GatewaySession, entry: JournalEntry, codes: CodeTable, graceMs: number): Promise<Settled> {
  const sent = sentFieldsOf(entry);
  let answer;
  try {
    answer = await session.client.status(entry.intent.transactionId);
  } catch (error) {
    if (!(error instanceof AgentpayError)) throw error;
    return { entry, view: unknownView(sent, 'Status', error.message), exitCode: error.exitCode, learned: false };
  }
  const view = viewOfStatusAnswer(answer, sent, codes);
  const codeClass = classifyCode(answer.status, codes);
  if (isRefusedLookUp(view, codes)) {
    const refused = unknownView(sent, 'Status', `the gateway refused the look-up itself (${answerText(view)}); check the agent id and password`);
    return { entry, view: refused, exitCode: ExitCode.pendingOrUnknown, learned: false };
  }
  if (codeClass === 'notFound') {
    const age = Date.now() - Date.parse(entry.intent.at);
    const earlier = entry.outcome?.view;
    if (earlier !== undefined && speaksOfPayment(earlier, codes)) {
      const lost = unknownView(sent, 'Status', `not found at the gateway now, though it answered ${answerText(earlier)} for it before; ask the gateway`);
      return { entry, view: lost, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    if (age < graceMs) {
      const waiting = unknownView(sent, 'Status', `not found at the gateway yet (${Math.round(age / 1000)} s old; final after ${graceMs / 1000} s)`);
      return { entry, view: waiting, exitCode: ExitCode.pendingOrUnknown, learned: false };
    }
    const neverMade: TransactionView = {
      ...view,
      state: 'failed',
      message: `never made: the gateway has no such transaction (${answer.message || `ResponseStatus ${answer.status}`})`,
    };
    return { entry, view: neverMade, exitCode: ExitCode.success, learned: true };
  }
  const learned = view.state !== entry.outcome?.view.state || view.status !== entry.outcome.view.status;
  return { entry, view, exitCode: reconcileExitCodeOfState[view.state], learned, ...(codeClass === 'unclassified' ? { unclassified: answer.status } : {}) };
}

/** After the run: each code the table did not classify, how often, and the settings to add. */
function reportUnclassified(counts: ReadonlyMap<string, number>, out: CommandContext['out']): void {
  for (const [code, count] of counts) {
    out.warn(`${count} transaction${count === 1 ? '' : 's'} left open on ResponseStatus ${code}: ${classifyHint(code)}`);
  }
}

/** Names the open transactions of other gateways and agents, which this run leaves alone. */
function noteOthers(owners: readonly OwnerCount[], mine: Owner, out: CommandContext['out']): void {
  const others = owners.filter((owner) => owner.gateway !== mine.gateway || owner.agentId !== mine.agentId);
  const count = others.reduce((sum, owner) => sum + owner.count, 0);
  if (count === 0) return;
  const names = others.map((owner) => `${owner.gateway} (agent ${owner.agentId})`);
  out.note(
    `${count} open transaction${count === 1 ? ' belongs' : 's belong'} to another gateway or agent: ${names.join(', ')}; run reconcile with that configuration to settle ${count === 1 ? 'it' : 'them'}`,
  );
}

/** `agentpay reconcile`: Status for every ledger entry not yet final; safe to run from cron, and from several machines at once. */
export async function runReconcile(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseReconcileOptions(rawOptions);
  const { out, settings } = context;
  const filter = { since: parseSince(options.since) };
  const ledger = await context.openLedger();

  const gateway = journalGatewayOf(settings, settings.baseUrl?.value);
  const agentId = settings.sandbox ? (await import('../../sandbox/catalogue.js')).sandboxCredentials.agentId : settings.agentId?.value;
  const owners = await ledger.openOwners(filter);
  const mine = owners.find((owner) => owner.gateway === gateway && owner.agentId === agentId);
  noteOthers(owners, { gateway: gateway ?? '', agentId: agentId ?? '' }, out);
  if (mine === undefined) {
    out.note(out.errorStyle.dim(`nothing to reconcile in ${ledger.location.shown}`));
    return;
  }

  const session = await context.openGateway({ connections: options.concurrency });
  const { renderTransactionLine, transactionJson } = await import('../../render/transaction.js');
  const tally = new BatchTally();
  const unclassified = new Map<string, number>();
  const unrecorded = { count: 0, failure: undefined as unknown };
  let reconciled = 0;
  try {
    // Each batch is claimed by this process until it is done: another reconciler skips it.
    for await (const batch of ledger.claimOpen(mine, filter)) {
      const learned: Promise<void>[] = [];
      await forEachOrdered(
        batch.entries,
        options.concurrency,
        (entry) => settleEntry(session, entry, settings.codes.table, options.grace * 1000),
        ({ entry, view, exitCode, learned: isNew, unclassified: code }) => {
          if (code !== undefined) unclassified.set(code, (unclassified.get(code) ?? 0) + 1);
          if (isNew) {
            const { transactionId, gateway: g, agentId: a } = entry.intent;
            learned.push(batch.record({ kind: 'outcome', transactionId, gateway: g, agentId: a, at: new Date().toISOString(), source: 'reconcile', view }));
          }
          tally.add(view.state, exitCode);
          out.data(out.json ? transactionJson(view) : renderTransactionLine(view, out.style));
        },
      );
      await Promise.all(learned);
      const done = await batch.done();
      unrecorded.count += done.unrecorded;
      unrecorded.failure ??= done.failure;
      reconciled += batch.entries.length;
    }
  } finally {
    await session.close();
  }
  reportUnclassified(unclassified, out);
  // An outcome the ledger could not take is still printed above; the run then ends with exit 6.
  tally.finish(`reconciled ${reconciled}`, out, unrecordedFailure(unrecorded, ledger, out.json ? 'on stdout' : 'above'));
}

/** The error to end with when some outcome learned was recorded nowhere: they were printed `where`. */
function unrecordedFailure(unrecorded: { count: number; failure: unknown }, ledger: Ledger, where: string): LocalStorageError | undefined {
  if (unrecorded.count === 0) return undefined;
  const first = unrecorded.failure instanceof LocalStorageError ? unrecorded.failure : undefined;
  const count = unrecorded.count === 1 ? '1 outcome learned from the gateway is' : `${unrecorded.count} outcomes learned from the gateway are`;
  return new LocalStorageError('write the journal', first?.path ?? ledger.location.shown, first?.cause ?? unrecorded.failure, {
    consequence: `${count} printed ${where} but not recorded`,
    hint: `${first?.hint ?? 'free the space or fix the permissions'}; then run reconcile again (it asks the gateway again)`,
  });
}
