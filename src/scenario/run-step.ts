import { setTimeout as sleep } from 'node:timers/promises';
import { ExitCode, type ExitCodeValue, mostSevere } from '../errors.js';
import { type Catalogue, en } from '../i18n/en.js';
import type { Wanted } from '../i18n/scenario-checks.js';
import { t } from '../run-scope.js';
import { type AssertionResult, evaluateExpectation } from './assertions.js';
import { type CaseScope, remember, scopeOf } from './case-scope.js';
import { interpolate, PlaceholderError } from './placeholders.js';
import type { Failure, Outcome, StepExecutor, StepOutcome, StepPlace, StepRun } from './step-outcome.js';
import type { StepDefinition, StepKind, StepOptions } from './step-schema.js';

// One step of a case: placeholders filled, run by the executor, expectations judged, what it leaves remembered.
export const elapsed = (since: number) => Math.round(performance.now() - since);

function stepLabel(step: Pick<StepDefinition, 'number' | 'kind' | 'id'>): string {
  return `step ${step.number} (${step.kind}${step.id === undefined ? '' : ` ${JSON.stringify(step.id)}`})`;
}

// A name for a step that has none, from its filled options: English for reports and --json, else the language.
export function describeStep(
  kind: StepKind,
  options: StepOptions,
  said: Catalogue['scenario']['step'] = en.scenario.step,
): string {
  const o = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
  const target = said.target(o('service') ?? '?', o('account') ?? '?');
  switch (kind) {
    case 'check':
      return said.check(target);
    case 'pay': {
      const invoiceId = o('invoice-id');
      const position = o('invoice');
      const what = options.raw
        ? said.raw(o('amount') ?? '', invoiceId)
        : invoiceId !== undefined
          ? said.invoice(invoiceId)
          : position !== undefined
            ? said.position(position)
            : said.amount(o('amount') ?? '', o('currency'));
      return said.pay(what, target, options['dry-run'] === true);
    }
    case 'status':
    case 'wait': {
      const id = o('txn-id') === 'fresh' ? said.fresh : (o('txn-id') ?? '');
      return kind === 'wait' ? said.wait(id) : said.status(id, o('wait'));
    }
    case 'repeat-pay':
      return said.repeatPay(o('of') ?? '');
  }
}

type StepResultWithExit = StepOutcome & { exitCode: ExitCodeValue };

/** The step as it will run: placeholders filled, the payment to repeat found; or why it cannot run. */
function prepareRun(
  step: StepDefinition,
  scope: CaseScope,
):
  | { run: StepRun; name: string; options: StepOptions | undefined }
  | { problem: Wanted; name: string; options: StepOptions | undefined } {
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
        const of = String(options.of);
        return { problem: { check: 'repeat', of }, name: describeStep('repeat-pay', options), options };
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
    const madeUp = step.name === undefined ? options : undefined;
    return { run: { kind: step.kind, options, credentials, replay: repeated?.replay }, name, options: madeUp };
  } catch (error) {
    if (error instanceof PlaceholderError)
      return { problem: { check: 'placeholder', problem: error.message }, name, options: undefined };
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
  onRetry?(step: StepPlace, attempt: number, reason: string): void;
}

// Why a step could not do its job, when a retry may help: unreachable (4), not understood (5), or an unknown
// outcome (3: the same TransactionID again is the safe retry). Never an answer, never refused input (2).
function retryReason(step: StepDefinition, result: Awaited<ReturnType<StepExecutor>>): string | undefined {
  if (errorIsDataFor(step)) return undefined;
  if (result.error !== undefined) {
    return result.error.exitCode === ExitCode.unreachable || result.error.exitCode === ExitCode.notUnderstood
      ? result.error.message
      : undefined;
  }
  if (result.exitCode !== ExitCode.pendingOrUnknown) return undefined;
  const { transactionId, message } = result.record;
  // Said like the step's errors, in the language of the run (--json runs speak English).
  return t().scenario.retryUnknown(
    String(transactionId),
    typeof message === 'string' && message !== '' ? message : undefined,
  );
}

async function runWithRetries(
  step: StepDefinition,
  run: StepRun,
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
    retry.onRetry?.(step, attempt + 1, reason);
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
    const expected = en.scenario.expected(prepared.problem);
    const failure: Failure = {
      path: '',
      check: 'equals',
      ok: false,
      expected,
      actual: '',
      wanted: prepared.problem,
      found: { value: '' },
      message: `${where}, ${label}: ${expected}`,
    };
    return {
      ...base,
      name: prepared.name,
      nameFrom: prepared.options,
      outcome: 'failed',
      ms: elapsed(started),
      failures: [failure],
      exitCode: ExitCode.declined,
    };
  }
  const { result, attempts, retried } = await runWithRetries(step, prepared.run, execute, retry);
  const verdict = judge(step, result, where, label, scope);
  remember(step, prepared.run, result, scope);
  return {
    ...base,
    ...verdict,
    name: prepared.name,
    nameFrom: prepared.options,
    ms: elapsed(started),
    record: result.record,
    attempts,
    retried,
  };
}

export const skippedStep = (step: StepDefinition): StepOutcome => ({
  number: step.number,
  kind: step.kind,
  id: step.id,
  name: step.name ?? step.kind,
  nameFrom: undefined,
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
