import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, type ExitCodeValue, mostSevere } from '../errors.js';
import { type AssertionResult, evaluateExpectation } from './assertions.js';
import { type CaseScope, remember, scopeOf } from './case-scope.js';
import { interpolate, PlaceholderError } from './placeholders.js';
import type { Failure, Outcome, StepExecutor, StepOutcome, StepRun } from './runner.js';
import type { StepDefinition, StepKind, StepOptions } from './step-schema.js';

/**
 * One step of a case: its placeholders filled from the vars and earlier records, run by the
 * executor, its expectations judged, and what it leaves for later steps remembered.
 */
export const elapsed = (since: number) => Math.round(performance.now() - since);

function stepLabel(step: Pick<StepDefinition, 'number' | 'kind' | 'id'>): string {
  return `step ${step.number} (${step.kind}${step.id === undefined ? '' : ` ${JSON.stringify(step.id)}`})`;
}

/** A name for a step that has none, from its options once filled in. */
function describeStep(kind: StepKind, options: StepOptions): string {
  const o = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
  const target = `${o('service') ?? '?'} for ${o('account') ?? '?'}`;
  switch (kind) {
    case 'check':
      return `check ${target}`;
    case 'pay': {
      const what = options.raw
        ? `raw ${o('amount')}${o('invoice-id') === undefined ? '' : ` for invoice ${o('invoice-id')}`}`
        : o('invoice-id') !== undefined
          ? `invoice ${o('invoice-id')}`
          : o('invoice') !== undefined
            ? `invoice #${o('invoice')}`
            : `${o('amount')}${o('currency') === undefined ? '' : ` ${o('currency')}`}`;
      return `pay ${what} to ${target}${options['dry-run'] ? ' (dry run)' : ''}`;
    }
    case 'status':
    case 'wait': {
      const id = o('txn-id') === 'fresh' ? 'a fresh TransactionID' : o('txn-id');
      return kind === 'wait'
        ? `wait for ${id} to be final`
        : `status ${id}${o('wait') === undefined ? '' : ` --wait ${o('wait')}`}`;
    }
    case 'repeat-pay':
      return `repeat-pay of ${o('of')}`;
  }
}

type StepResultWithExit = StepOutcome & { exitCode: ExitCodeValue };

/** The step as it will run: placeholders filled, the payment to repeat found; or why it cannot run. */
function prepareRun(
  step: StepDefinition,
  scope: CaseScope,
): { run: StepRun; name: string } | { problem: string; name: string } {
  let name = step.name ?? step.kind;
  try {
    const options = { ...(interpolate(step.options, scopeOf(scope)) as StepOptions) };
    if ((step.kind === 'status' || step.kind === 'wait') && options['txn-id'] === undefined) {
      options['txn-id'] = String(scope.lastPayment?.transactionId ?? '');
    }
    const repeated =
      step.kind !== 'repeat-pay'
        ? undefined
        : typeof options.of === 'string'
          ? scope.replays.get(options.of)
          : scope.lastPayment;
    if (step.kind === 'repeat-pay') {
      options.of = typeof options.of === 'string' ? options.of : scope.lastPayment?.name;
      if (repeated === undefined) {
        return {
          problem: `there is no payment ${JSON.stringify(options.of)} to repeat (a dry run, or a payment that could not be made, leaves none)`,
          name: `repeat-pay of ${options.of}`,
        };
      }
    }
    const written =
      step.credentials === undefined
        ? undefined
        : (interpolate(step.credentials, scopeOf(scope)) as NonNullable<StepDefinition['credentials']>);
    // A repeat is the same Payment: with the credentials of the step it repeats, unless it says otherwise.
    const credentials =
      written === undefined ? repeated?.credentials : { agentId: written['agent-id'], password: written.password };
    name = step.name === undefined ? describeStep(step.kind, options) : String(interpolate(step.name, scopeOf(scope)));
    return { run: { kind: step.kind, options, credentials, replay: repeated?.replay }, name };
  } catch (error) {
    if (error instanceof PlaceholderError) return { problem: error.message, name };
    throw error;
  }
}

/** What the step's answer says against its expectations: passed, failed (with each failure), or an error. */
const errorIsDataFor = (step: StepDefinition) =>
  step.expect.some((e) => (e.segments[0] as { name: string }).name === 'error');

function judge(
  step: StepDefinition,
  result: Awaited<ReturnType<StepExecutor>>,
  where: string,
  label: string,
  scope: CaseScope,
) {
  const errorIsData = errorIsDataFor(step);
  const exitCodes: ExitCodeValue[] = [result.exitCode ?? ExitCode.success];
  if (result.error && !errorIsData) {
    exitCodes.push(result.error.exitCode);
    const error = {
      ...result.error,
      message: `${where}, ${label}: ${result.error.message}`,
      reason: result.error.message,
    };
    return {
      outcome: 'error' as Outcome,
      error,
      checks: 0,
      failures: [] as Failure[],
      exitCode: mostSevere(exitCodes),
    };
  }
  const context = {
    scope: scopeOf(scope, [['self', result.record]]),
    recordOf: (other: string) => scope.records.get(other),
  };
  const results: AssertionResult[] = step.expect.flatMap((expectation) =>
    evaluateExpectation(expectation, result.record, context),
  );
  const failures = results
    .filter((r) => !r.ok)
    .map(
      (r): Failure => ({ ...r, message: `${where}, ${label}: ${r.path}: expected ${r.expected}, actual ${r.actual}` }),
    );
  if (failures.length > 0) exitCodes.push(ExitCode.declined);
  return {
    outcome: (failures.length > 0 ? 'failed' : 'passed') as Outcome,
    error: undefined,
    checks: results.length,
    failures,
    exitCode: mostSevere(exitCodes),
  };
}

/** --retry: how often a step that could not do its job is tried again, and how long to wait first. */
export interface RetryPolicy {
  retries: number;
  /** Before the first retry; doubled for each one after, up to 8 s. */
  delayMs: number;
  signal?: AbortSignal | undefined;
  onRetry?(label: string, attempt: number, reason: string): void;
}

/**
 * Why the step could not do its job, when a retry may help: the gateway unreachable (4) or
 * not understood (5), or a payment whose outcome is unknown (3: sent again with the same
 * TransactionID it is the safe retry). Never a gateway's answer (a "no" is data), never
 * input refused before sending (2), never an error the step expects.
 */
function retryReason(step: StepDefinition, result: Awaited<ReturnType<StepExecutor>>): string | undefined {
  if (errorIsDataFor(step)) return undefined;
  if (result.error !== undefined) {
    return result.error.exitCode === ExitCode.unreachable || result.error.exitCode === ExitCode.notUnderstood
      ? result.error.message
      : undefined;
  }
  if (result.exitCode !== ExitCode.pendingOrUnknown) return undefined;
  const { transactionId, message } = result.record;
  return `the outcome of payment ${String(transactionId)} is unknown${typeof message === 'string' && message !== '' ? ` (${message})` : ''}`;
}

async function runWithRetries(
  step: StepDefinition,
  run: StepRun,
  label: string,
  execute: StepExecutor,
  retry: RetryPolicy | undefined,
) {
  const kept: Record<string, unknown> = {};
  const retried: string[] = [];
  let attempt = 1;
  let result = await execute({ ...run, attempt, kept });
  for (
    let reason = retryReason(step, result);
    reason !== undefined && retry !== undefined && attempt <= retry.retries;
    reason = retryReason(step, result)
  ) {
    if (retry.signal?.aborted) break;
    retried.push(reason);
    retry.onRetry?.(label, attempt + 1, reason);
    try {
      await sleep(
        Math.min(retry.delayMs * 2 ** (attempt - 1), 8000),
        undefined,
        retry.signal ? { signal: retry.signal } : {},
      );
    } catch {
      break;
    }
    attempt++;
    result = await execute({ ...run, attempt, kept });
  }
  return { result, attempts: attempt, retried };
}

export async function runStep(
  step: StepDefinition,
  where: string,
  scope: CaseScope,
  execute: StepExecutor,
  retry?: RetryPolicy,
): Promise<StepResultWithExit> {
  const started = performance.now();
  const label = stepLabel(step);
  const base = {
    number: step.number,
    kind: step.kind,
    id: step.id,
    label,
    record: undefined,
    checks: 0,
    failures: [],
    error: undefined,
    attempts: 1,
    retried: [],
  };
  const prepared = prepareRun(step, scope);
  if ('problem' in prepared) {
    const failure = {
      path: '',
      check: 'equals' as const,
      ok: false,
      expected: prepared.problem,
      actual: '',
      message: `${where}, ${label}: ${prepared.problem}`,
    };
    return {
      ...base,
      name: prepared.name,
      outcome: 'failed',
      ms: elapsed(started),
      failures: [failure],
      exitCode: ExitCode.declined,
    };
  }
  const { result, attempts, retried } = await runWithRetries(step, prepared.run, label, execute, retry);
  const verdict = judge(step, result, where, label, scope);
  remember(step, prepared.run, result, scope);
  return { ...base, ...verdict, name: prepared.name, ms: elapsed(started), record: result.record, attempts, retried };
}

export const skippedStep = (step: StepDefinition): StepOutcome => ({
  number: step.number,
  kind: step.kind,
  id: step.id,
  name: step.name ?? step.kind,
  label: stepLabel(step),
  outcome: 'skipped',
  ms: 0,
  record: undefined,
  checks: 0,
  failures: [],
  error: undefined,
  attempts: 0,
  retried: [],
});
