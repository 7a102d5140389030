import { InterruptedError, UsageError } from '../../errors.js';
import { stoppedBy } from '../../interrupts.js';
import type { Owner, OwnerCount } from '../../ledger/ledger.js';
import type { JobFigures } from '../../metrics/exposition.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord } from '../../options/values.js';
import { journalGatewayOf } from '../../purchase/session.js';
import { t } from '../../run-scope.js';
import { classifyHint } from '../../settings/code-lists.js';
import { BatchTally } from '../batch-tally.js';
import type { CommandContext } from '../context.js';
import { measured } from '../measured-run.js';
import { parseSince } from '../since.js';
import { type ReconcileOptions, reconcileOptions } from './options.js';
import { batchSettling, settleBatch } from './settle-batch.js';
import { unrecordedFailure } from './settle-entry.js';

/** Options that mean something only with --registry, or only without it. */
function checkOptionsGoTogether(options: ReconcileOptions): void {
  const registryOnly = [
    ['--registry-format', options.registryFormat],
    ['--date', options.date],
    ['--settle', options.settle || undefined],
    ['--format', options.format],
    ['--bom', options.bom || undefined],
    ['--delimiter', options.delimiter],
    ['--decimal-comma', options.decimalComma || undefined],
  ] as const;
  const given = registryOnly.find(([, value]) => value !== undefined);
  if (options.registry === undefined && given !== undefined)
    throw new UsageError(t().registry.goesWithRegistry(given[0]));
  if (options.registry !== undefined && options.since !== undefined)
    throw new UsageError(t().registry.sinceWithRegistry, { hint: t().registry.sinceWithRegistryHint });
}

/** After the run: each code the table did not classify, how often, and the settings to add. */
function reportUnclassified(counts: ReadonlyMap<string, number>, out: CommandContext['out']): void {
  for (const [code, count] of counts) {
    out.warn(t().reconcile.leftOpen(count, code, classifyHint(code)));
  }
}

/** Names the open transactions of other gateways and agents, which this run leaves alone. */
function noteOthers(owners: readonly OwnerCount[], mine: Owner, out: CommandContext['out']): void {
  const others = owners.filter((owner) => owner.gateway !== mine.gateway || owner.agentId !== mine.agentId);
  const count = others.reduce((sum, owner) => sum + owner.count, 0);
  if (count === 0) return;
  const names = others.map((owner) => t().reconcile.owner(owner.gateway, owner.agentId));
  out.note(t().reconcile.others(count, names.join(', ')));
}

/** `agentpay reconcile`: Status for every ledger entry not yet final; safe to run from cron, and from several machines at once. */
async function reconcile(rawOptions: unknown, context: CommandContext, figures: JobFigures): Promise<void> {
  const options = parseOptions(rawOptions, reconcileOptions);
  checkOptionsGoTogether(options);
  if (options.registry !== undefined) {
    const { runRegistryReconcile } = await import('./registry.js');
    await runRegistryReconcile({ ...options, registry: options.registry }, context, figures);
    return;
  }
  const { out, settings } = context;
  const filter = { since: parseSince(options.since) };
  const ledger = await context.openLedger();

  const gateway = journalGatewayOf(settings, settings.baseUrl?.value);
  const agentId = settings.sandbox
    ? (await import('../../sandbox/catalogue.js')).sandboxCredentials.agentId
    : settings.agentId?.value;
  const owners = await ledger.openOwners(filter);
  const mine = owners.find((owner) => owner.gateway === gateway && owner.agentId === agentId);
  noteOthers(owners, { gateway: gateway ?? '', agentId: agentId ?? '' }, out);
  if (mine === undefined) {
    figures.openPayments = { pending: 0, unknown: 0 };
    out.note(out.errorStyle.dim(t().reconcile.nothing(ledger.location.shown)));
    return;
  }

  const session = await context.openGateway({ connections: options.concurrency });
  const { renderTransactionLine, transactionJson } = await import('../../render/transaction.js');
  const tally = new BatchTally();
  const unclassified = new Map<string, number>();
  const unrecorded = { count: 0, failure: undefined as unknown };
  let reconciled = 0;
  let learned = 0;
  const how = batchSettling(context, session, options);
  try {
    // Each batch is claimed by this process until it is done: another reconciler skips it.
    for await (const batch of ledger.claimOpen(mine, filter)) {
      // A line is shown once its outcome is in the ledger (settle-batch.ts).
      const done = await settleBatch(batch, batch.entries, how, ({ view, exitCode, unclassified: code }) => {
        if (code !== undefined) unclassified.set(code, (unclassified.get(code) ?? 0) + 1);
        tally.add(view.state, exitCode);
        out.data(out.json ? transactionJson(view) : renderTransactionLine(view, out.style, t()));
      });
      unrecorded.count += done.unrecorded;
      unrecorded.failure ??= done.failure;
      learned += done.learned - done.unrecorded;
      reconciled += batch.entries.length;
      if (how.stop.aborted) break;
    }
  } finally {
    await session.close();
  }
  reportUnclassified(unclassified, out);
  const signal = stoppedBy(context.interrupts);
  const failure = unrecordedFailure(unrecorded, ledger, out.json ? 'on stdout' : 'above');
  if (signal !== undefined && failure === undefined)
    throw new InterruptedError(signal, t().errors.stoppedReconcile(signal, learned));
  figures.openPayments = { pending: tally.counts.pending, unknown: tally.counts.unknown };
  // An outcome the ledger could not take is still printed above; the run then ends with exit 6.
  tally.finish(t().batch.reconciled(reconciled), out, failure);
}

/** The job label of a run's metrics (--metrics-file): reconcile, or reconcile_registry with --registry. */
const jobOf = (rawOptions: unknown) =>
  optionRecord(rawOptions).registry === undefined ? 'reconcile' : 'reconcile_registry';

export const runReconcile = measured(jobOf, reconcile);
