import { AgentpayError, ExitCode, UsageError, type ExitCodeValue } from '../errors.js';
import type { GatewayClient } from '../gateway/client.js';
import { parseTransactionId } from '../protocol/transaction-id.js';
import type { CodeTable } from '../protocol/codes.js';
import { isFinalState, unknownView, viewOfStatusAnswer, type TransactionView } from '../protocol/transaction-view.js';
import type { CommandContext } from './context.js';
import { errorOfView } from './payment-flow.js';
import { BatchTally } from './batch-tally.js';
import { forEachOrdered } from './ordered-pool.js';
import { concurrencyOption, optionalText, optionRecord, wholeNumberOption } from './option-values.js';
import { transactionIdsFrom, type IdEntry } from './transaction-ids.js';
import { passwordReadsStdin } from '../settings/password.js';

interface StatusOptions {
  ids: string[];
  fromFile: string | undefined;
  /** Seconds to poll a pending transaction; 0 asks once. */
  wait: number;
  concurrency: number;
}

/** --wait: seconds to poll a pending transaction (status, and a scenario's status and wait steps). */
export const waitOption = (raw: unknown): number =>
  wholeNumberOption(raw, { fallback: '0', maxDigits: 6, message: '--wait takes a whole number of seconds' });

function parseStatusOptions(raw: unknown): StatusOptions {
  const options = optionRecord(raw);
  const ids = options.ids ?? [];
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new UsageError('transaction ids must be text');
  return {
    ids,
    fromFile: optionalText(options.fromFile, '--from-file'),
    wait: waitOption(options.wait),
    concurrency: concurrencyOption(options.concurrency),
  };
}

/** Waits `ms`; false when `signal` aborted first. A plain timer: node:timers/promises is not loaded for it. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface LookUpResult {
  view: TransactionView;
  exitCode: ExitCodeValue;
  /** Set when the look-up itself failed (unreachable, not understood, bad input line). */
  error?: AgentpayError;
  /** A line of the file that is not a transaction id: nothing was looked up. */
  notAnId?: true;
}

const exitOfState: Record<TransactionView['state'], ExitCodeValue> = { success: ExitCode.success, failed: ExitCode.declined, pending: ExitCode.pendingOrUnknown, unknown: ExitCode.pendingOrUnknown };

/** Polling goes on while a transaction is not final (status --wait), or only while in progress (buy). */
export type PollWhile = 'open' | 'pending';

/**
 * Status for one id; with a wait, polls one that is not final (or, with `pollWhile` 'pending',
 * one in progress) with backoff until it is, out of time, or `signal` aborts (buy: Ctrl+C
 * while following; a scenario's Ctrl+C): then the last answer stands, still open.
 */
export async function lookUpStatus(
  client: GatewayClient,
  transactionId: string,
  codes: CodeTable,
  waitUntil: number,
  options: { signal?: AbortSignal | undefined; pollWhile?: PollWhile } = {},
): Promise<LookUpResult> {
  const { signal, pollWhile = 'open' } = options;
  const polling = (view: TransactionView) => (pollWhile === 'pending' ? view.state === 'pending' : !isFinalState(view.state));
  let delayMs = 500;
  for (;;) {
    let view: TransactionView;
    try {
      view = viewOfStatusAnswer(await client.status(transactionId), { transactionId }, codes);
    } catch (error) {
      if (!(error instanceof AgentpayError)) throw error;
      return { view: unknownView({ transactionId }, 'Status', error.message), exitCode: error.exitCode, error };
    }
    const remaining = waitUntil - Date.now();
    if (!polling(view) || remaining <= 0 || signal?.aborted) return { view, exitCode: exitOfState[view.state] };
    if (!(await pause(Math.min(delayMs, remaining), signal))) return { view, exitCode: exitOfState[view.state] };
    delayMs = Math.min(delayMs * 1.6, 5_000);
  }
}

/** `agentpay status`: Status for each id (spec 4.4), streamed in input order. */
export async function runStatus(rawOptions: unknown, context: CommandContext): Promise<void> {
  const options = parseStatusOptions(rawOptions);
  const { out, settings } = context;
  if (options.ids.length === 0 && options.fromFile === undefined) {
    throw new UsageError('give at least one transaction id, or --from-file <path|->');
  }
  // Ids on the command line are checked before anything else: a typo sends nothing.
  const ids = options.ids.map((id) => parseTransactionId(id));
  if (options.fromFile === '-' && !settings.sandbox && passwordReadsStdin(settings)) {
    // The password would swallow the ids (or the ids the password): refuse before either is read.
    throw new UsageError('stdin cannot hold both the password and the ids (--password-file - and --from-file -)', {
      hint: 'put the ids in a file for --from-file, or the password in AGENTPAY_PASSWORD or a file of its own',
    });
  }
  const entries = transactionIdsFrom(ids, options.fromFile, () => out.stdin);
  // One id on the command line gets a receipt and its error as the command's own.
  const single = options.ids.length === 1 && options.fromFile === undefined;
  const [session, { renderReceipt, renderTransactionLine, transactionJson }] = await Promise.all([
    // Ids from a file or stdin are a batch of unknown size: many exchanges to come.
    context.openGateway({ connections: options.concurrency, batch: options.fromFile !== undefined }),
    import('../render/transaction.js'),
  ]);
  const tally = new BatchTally();
  const waitMs = options.wait * 1000;

  const lookUp = async (entry: IdEntry): Promise<LookUpResult> => {
    if ('invalid' in entry) {
      const error = new UsageError(entry.invalid);
      return { view: unknownView({ transactionId: '' }, 'Status', entry.invalid), exitCode: error.exitCode, error, notAnId: true };
    }
    return lookUpStatus(session.client, entry.id, settings.codes.table, Date.now() + waitMs);
  };

  let lastView: TransactionView | undefined;
  const emit = (result: LookUpResult) => {
    lastView = result.view;
    if (result.notAnId) tally.addNotAnId(result.exitCode);
    else tally.add(result.view.state, result.exitCode);
    if (single) {
      if (result.error) throw result.error;
      out.data(out.json ? transactionJson(result.view) : renderReceipt(result.view, out.style, 'Transaction'));
      return;
    }
    if (out.json) {
      out.data(transactionJson(result.view, result.error ? { error: { exitCode: result.exitCode, message: result.error.message } } : undefined));
    } else if (result.error) {
      // The look-up failed: a message for the person, not a data line.
      out.note(`${out.errorStyle.failure('✗')} ${result.view.transactionId || 'input'}: ${result.error.message}`);
    } else {
      out.data(renderTransactionLine(result.view, out.style));
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
  const notIds = tally.notIds === 0 ? '' : tally.notIds === 1 ? ', 1 line not an id' : `, ${tally.notIds} lines not ids`;
  tally.finish(`${tally.total} looked up${notIds}`, out);
}

