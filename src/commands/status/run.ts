import { existsSync } from 'node:fs';
import { UsageError } from '../../errors.js';
import type { Ledger } from '../../ledger/ledger.js';
import { parseOptions } from '../../options/definition.js';
import { optionRecord } from '../../options/values.js';
import { parseTransactionId } from '../../protocol/transaction-id.js';
import { type TransactionView, unknownView } from '../../protocol/transaction-view.js';
import { lookUpBook } from '../../purchase/look-up-record.js';
import { errorOfView } from '../../purchase/outcome.js';
import { type LookUpResult, lookUpStatus } from '../../purchase/status-look-up.js';
import { shownText } from '../../render/sanitize.js';
import { t } from '../../run-scope.js';
import { passwordReadsStdin } from '../../settings/password.js';
import type { Settings } from '../../settings/resolve.js';
import { BatchTally } from '../batch-tally.js';
import type { CommandContext } from '../context.js';
import { forEachOrdered } from '../ordered-pool.js';
import { type IdEntry, transactionIdsFrom } from '../transaction-ids.js';
import { statusOptions } from './options.js';

interface StatusOptions {
  ids: string[];
  fromFile: string | undefined;
  /** Seconds to poll a pending transaction; 0 asks once. */
  wait: number;
  concurrency: number;
}

function parseStatusOptions(raw: unknown): StatusOptions {
  const options = optionRecord(raw);
  const ids = options.ids ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new UsageError(t().commands.idsAsText);
  return { ids, ...parseOptions(raw, statusOptions) };
}

// The ids on the command line checked before anything else (a typo sends nothing).
function commandLineIds(options: StatusOptions, settings: Settings): string[] {
  if (options.ids.length === 0 && options.fromFile === undefined) {
    throw new UsageError(t().commands.noIds);
  }
  const ids = options.ids.map((id) => parseTransactionId(id));
  if (options.fromFile === '-' && !settings.sandbox && passwordReadsStdin(settings)) {
    // The password would swallow the ids (or the ids the password): refuse before either is read.
    throw new UsageError(t().commands.stdinTwice, { hint: t().commands.stdinTwiceHint });
  }
  return ids;
}

/** The ledger the settings name; none when it is a file not made yet (it holds no payment; a look-up makes none). */
function ledgerIfMade(context: CommandContext): Promise<Ledger | undefined> {
  const location = context.settings.ledger.value;
  if (location.kind === 'file' && !existsSync(location.path)) return Promise.resolve(undefined);
  return context.openLedger();
}

// `agentpay status`: Status for each id (spec 4.4) in input order; what it learns of a ledger transaction is
// recorded as reconcile would (purchase/look-up-record.ts).
export async function runStatus(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseStatusOptions(rawOptions);
  const { out, settings } = context;
  const ids = commandLineIds(options, settings);
  const entries = transactionIdsFrom(ids, options.fromFile, () => out.stdin);
  // One id on the command line gets a receipt and its error as the command's own.
  const single = options.ids.length === 1 && options.fromFile === undefined;
  const [session, { renderReceipt, renderTransactionLine, transactionJson }] = await Promise.all([
    // Ids from a file or stdin are a batch of unknown size: many exchanges to come.
    context.openGateway({ connections: options.concurrency }),
    import('../../render/transaction.js'),
  ]);
  const tally = new BatchTally();
  const waitMs = options.wait * 1000;
  const owner = { gateway: session.gateway, agentId: session.agentId };
  const book = lookUpBook(() => ledgerIfMade(context), owner, settings.codes.table, out);

  const lookUp = async (entry: IdEntry): Promise<LookUpResult> => {
    if ('invalid' in entry) {
      const error = new UsageError(entry.invalid);
      return {
        view: unknownView({ transactionId: '' }, 'Status', entry.invalid),
        exitCode: error.exitCode,
        error,
        notAnId: true,
      };
    }
    // Read before the Status leaves: the answer is for the attempt the ledger held then.
    const held = await book.held(entry.id);
    const result = await lookUpStatus(session.client, entry.id, settings.codes.table, Date.now() + waitMs, {
      firstDelayMs: settings.settle.delayMs.value,
    });
    if (held !== undefined) await book.record(held, result);
    return result;
  };

  let lastView: TransactionView | undefined;
  const emit = (result: LookUpResult) => {
    lastView = result.view;
    if (result.notAnId) tally.addNotAnId(result.exitCode);
    else tally.add(result.view.state, result.exitCode);
    if (single) {
      if (result.error) throw result.error;
      out.data(out.json ? transactionJson(result.view) : renderReceipt(result.view, out.style, 'transaction', t()));
      return;
    }
    if (out.json) {
      out.data(
        transactionJson(
          result.view,
          result.error ? { error: { exitCode: result.exitCode, message: result.error.message } } : undefined,
        ),
      );
    } else if (result.error) {
      // The look-up failed: a message for the person, not a data line.
      out.note(
        `${out.errorStyle.failure('✗')} ${shownText(result.view.transactionId || 'input')}: ${shownText(result.error.message)}`,
      );
    } else {
      out.data(renderTransactionLine(result.view, out.style, t()));
    }
  };

  try {
    await forEachOrdered(entries, options.concurrency, lookUp, emit);
  } finally {
    await session.close();
  }

  if (single) {
    const error = lastView && errorOfView(lastView, settings.codes.table);
    if (error) throw error;
    return;
  }
  tally.finish(t().batch.lookedUp(tally.total, tally.notIds), out);
}
