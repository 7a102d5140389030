import { ExitCode, mostSevere, type ExitCodeValue } from '../errors.js';
import { evaluateExpectation, type AssertionResult } from './assertions.js';
import type { CaseDefinition, StepDefinition, StepKind, StepOptions, Suite } from './file.js';
import { interpolate, PlaceholderError } from './placeholders.js';

/**
 * Runs suites case by case and step by step: fills in placeholders from the vars and the
 * records of earlier steps, hands each step to an executor (the gateway, in steps.ts), and
 * checks the step's expectations against its record. It never prints: a listener hears of
 * each step as it ends. A case stops at its first step that fails; --bail stops the run at
 * the first case that does.
 */
export interface StepRun {
  kind: StepKind;
  /** Placeholders filled in; for status and wait, txn-id defaults to the case's last payment. */
  options: StepOptions;
  credentials: { agentId?: string | undefined; password?: string | undefined } | undefined;
  /** repeat-pay: what the payment it repeats left for that. */
  replay: unknown;
}

export interface StepError {
  exitCode: ExitCodeValue;
  type: string;
  message: string;
}

export interface StepResult {
  /** What the step saw, for assertions, placeholders and --json: the transaction, the raw envelope, ... */
  record: Record<string, unknown>;
  /** pay and repeat-pay: what a repeat-pay of this step needs to send the same Payment again. */
  replay?: unknown;
  /** Set when the step could not do its job (unreachable, not understood, refused input). */
  error?: StepError;
  /** An exit code the step adds whatever its assertions say: 3 for a payment whose outcome is unknown. */
  exitCode?: ExitCodeValue;
}

export type StepExecutor = (step: StepRun) => Promise<StepResult>;

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped';

export interface Failure extends AssertionResult {
  /** One line naming the case, the step, the path, the expected and the actual value. */
  message: string;
}

export interface StepOutcome {
  number: number;
  kind: StepKind;
  id: string | undefined;
  /** What a person reads: the step's `name`, or one made from its options. */
  name: string;
  /** `step 2 (pay "first")`: how messages name it. */
  label: string;
  outcome: Outcome;
  ms: number;
  record: Record<string, unknown> | undefined;
  checks: number;
  failures: Failure[];
  /** `message` names the case and step; `reason` is the error's own message. */
  error: (StepError & { reason: string }) | undefined;
}

export interface CaseOutcome {
  name: string;
  outcome: Outcome;
  ms: number;
  steps: StepOutcome[];
}

export interface SuiteOutcome {
  file: string;
  name: string;
  cases: CaseOutcome[];
  ms: number;
}

export interface RunListener {
  caseStarted?(suite: Suite, definition: CaseDefinition): void;
  stepFinished?(suite: Suite, definition: CaseDefinition, step: StepOutcome): void;
  caseFinished?(suite: Suite, outcome: CaseOutcome): void;
}

export interface RunOptions {
  bail: boolean;
  /** Aborted (Ctrl+C): no new step starts; the rest are skipped. */
  signal?: AbortSignal | undefined;
  listener?: RunListener;
}

export interface RunResult {
  suites: SuiteOutcome[];
  /** 0 all passed, 1 an assertion failed, else the most severe step error (4, 5 > 3 > 2 > 1). */
  exitCode: ExitCodeValue;
  interrupted: boolean;
}

const elapsed = (since: number) => Math.round(performance.now() - since);

export function stepLabel(step: Pick<StepDefinition, 'number' | 'kind' | 'id'>): string {
  return `step ${step.number} (${step.kind}${step.id === undefined ? '' : ` ${JSON.stringify(step.id)}`})`;
}

/** A name for a step that has none, from its options once filled in. */
export function describeStep(kind: StepKind, options: StepOptions): string {
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
      return kind === 'wait' ? `wait for ${id} to be final` : `status ${id}${o('wait') === undefined ? '' : ` --wait ${o('wait')}`}`;
    }
    case 'repeat-pay':
      return `repeat-pay of ${o('of')}`;
  }
}

interface Replay {
  /** The step's id, or its kind: what messages call it. */
  name: string;
  transactionId: unknown;
  replay: unknown;
  credentials: StepRun['credentials'];
}

interface CaseScope {
  vars: Record<string, string>;
  records: Map<string, Record<string, unknown>>;
  replays: Map<string, Replay>;
  /** The case's last payment: what status, wait and repeat-pay use when not told otherwise. */
  lastPayment: Replay | undefined;
}

function scopeOf(scope: CaseScope, extra: [string, unknown][] = []): Map<string, unknown> {
  return new Map<string, unknown>([['var', scope.vars], ...scope.records, ...extra]);
}

type StepResultWithExit = StepOutcome & { exitCode: ExitCodeValue };

/** The step as it will run: placeholders filled, the payment to repeat found; or why it cannot run. */
function prepareRun(step: StepDefinition, scope: CaseScope): { run: StepRun; name: string } | { problem: string; name: string } {
  let name = step.name ?? step.kind;
  try {
    const options = { ...(interpolate(step.options, scopeOf(scope)) as StepOptions) };
    if ((step.kind === 'status' || step.kind === 'wait') && options['txn-id'] === undefined) {
      options['txn-id'] = String(scope.lastPayment?.transactionId ?? '');
    }
    const repeated = step.kind !== 'repeat-pay' ? undefined : typeof options.of === 'string' ? scope.replays.get(options.of) : scope.lastPayment;
    if (step.kind === 'repeat-pay') {
      options.of = typeof options.of === 'string' ? options.of : scope.lastPayment?.name;
      if (repeated === undefined) {
        return { problem: `there is no payment ${JSON.stringify(options.of)} to repeat (a dry run, or a payment that could not be made, leaves none)`, name: `repeat-pay of ${options.of}` };
      }
    }
    const written = step.credentials === undefined ? undefined : (interpolate(step.credentials, scopeOf(scope)) as NonNullable<StepDefinition['credentials']>);
    // A repeat is the same Payment: with the credentials of the step it repeats, unless it says otherwise.
    const credentials = written === undefined ? repeated?.credentials : { agentId: written['agent-id'], password: written.password };
    name = step.name === undefined ? describeStep(step.kind, options) : String(interpolate(step.name, scopeOf(scope)));
    return { run: { kind: step.kind, options, credentials, replay: repeated?.replay }, name };
  } catch (error) {
    if (error instanceof PlaceholderError) return { problem: error.message, name };
    throw error;
  }
}

/** What the step's answer says against its expectations: passed, failed (with each failure), or an error. */
function judge(step: StepDefinition, result: Awaited<ReturnType<StepExecutor>>, where: string, label: string, scope: CaseScope) {
  const errorIsData = step.expect.some((e) => (e.segments[0] as { name: string }).name === 'error');
  const exitCodes: ExitCodeValue[] = [result.exitCode ?? ExitCode.success];
  if (result.error && !errorIsData) {
    exitCodes.push(result.error.exitCode);
    const error = { ...result.error, message: `${where}, ${label}: ${result.error.message}`, reason: result.error.message };
    return { outcome: 'error' as Outcome, error, checks: 0, failures: [] as Failure[], exitCode: mostSevere(exitCodes) };
  }
  const context = { scope: scopeOf(scope, [['self', result.record]]), recordOf: (other: string) => scope.records.get(other) };
  const results: AssertionResult[] = step.expect.flatMap((expectation) => evaluateExpectation(expectation, result.record, context));
  const failures = results.filter((r) => !r.ok).map((r): Failure => ({ ...r, message: `${where}, ${label}: ${r.path}: expected ${r.expected}, actual ${r.actual}` }));
  if (failures.length > 0) exitCodes.push(ExitCode.declined);
  return { outcome: (failures.length > 0 ? 'failed' : 'passed') as Outcome, error: undefined, checks: results.length, failures, exitCode: mostSevere(exitCodes) };
}

/** The step's record under its kind and id, and the payment it made for a later repeat-pay. */
function remember(step: StepDefinition, run: StepRun, result: Awaited<ReturnType<StepExecutor>>, scope: CaseScope): void {
  const { record } = result;
  const replay: Replay | undefined =
    result.replay === undefined ? undefined : { name: step.id ?? step.kind, transactionId: record.transactionId, replay: result.replay, credentials: run.credentials };
  for (const key of [step.kind, ...(step.id === undefined ? [] : [step.id])]) {
    scope.records.set(key, record);
    // A dry run, or a payment that could not be made, leaves nothing to repeat under its name.
    if (replay === undefined) scope.replays.delete(key);
    else scope.replays.set(key, replay);
  }
  if (replay !== undefined) scope.lastPayment = replay;
}

async function runStep(step: StepDefinition, where: string, scope: CaseScope, execute: StepExecutor): Promise<StepResultWithExit> {
  const started = performance.now();
  const label = stepLabel(step);
  const base = { number: step.number, kind: step.kind, id: step.id, label, record: undefined, checks: 0, failures: [], error: undefined };
  const prepared = prepareRun(step, scope);
  if ('problem' in prepared) {
    const failure = { path: '', check: 'equals' as const, ok: false, expected: prepared.problem, actual: '', message: `${where}, ${label}: ${prepared.problem}` };
    return { ...base, name: prepared.name, outcome: 'failed', ms: elapsed(started), failures: [failure], exitCode: ExitCode.declined };
  }
  const result = await execute(prepared.run);
  const verdict = judge(step, result, where, label, scope);
  remember(step, prepared.run, result, scope);
  return { ...base, ...verdict, name: prepared.name, ms: elapsed(started), record: result.record };
}

const skippedStep = (step: StepDefinition): StepOutcome => ({
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
});

export async function runSuites(suites: readonly { suite: Suite; vars: ReadonlyMap<string, string> }[], execute: StepExecutor, options: RunOptions): Promise<RunResult> {
  const listener = options.listener ?? {};
  const exitCodes: ExitCodeValue[] = [];
  let stopped = false;
  const outcomes: SuiteOutcome[] = [];
  for (const { suite, vars } of suites) {
    const suiteStarted = performance.now();
    const cases: CaseOutcome[] = [];
    for (const definition of suite.cases) {
      const caseStarted = performance.now();
      const where = `case ${JSON.stringify(definition.name)}`;
      const scope: CaseScope = { vars: Object.fromEntries(vars), records: new Map(), replays: new Map(), lastPayment: undefined };
      const steps: StepOutcome[] = [];
      const wholeCaseSkipped = stopped;
      if (!wholeCaseSkipped) listener.caseStarted?.(suite, definition);
      for (const step of definition.steps) {
        stopped ||= options.signal?.aborted === true;
        if (stopped || steps.some((s) => s.outcome !== 'passed')) {
          steps.push(skippedStep(step));
          if (!wholeCaseSkipped) listener.stepFinished?.(suite, definition, steps.at(-1)!);
          continue;
        }
        const { exitCode, ...outcome } = await runStep(step, where, scope, execute);
        exitCodes.push(exitCode);
        steps.push(outcome);
        listener.stepFinished?.(suite, definition, outcome);
      }
      const worst = (['error', 'failed'] as const).find((o) => steps.some((s) => s.outcome === o));
      const caseOutcome: CaseOutcome = { name: definition.name, outcome: worst ?? (steps.every((s) => s.outcome === 'skipped') ? 'skipped' : 'passed'), ms: elapsed(caseStarted), steps };
      cases.push(caseOutcome);
      listener.caseFinished?.(suite, caseOutcome);
      if (options.bail && worst !== undefined) stopped = true;
    }
    outcomes.push({ file: suite.file, name: suite.name, cases, ms: elapsed(suiteStarted) });
  }
  return { suites: outcomes, exitCode: mostSevere(exitCodes), interrupted: options.signal?.aborted === true };
}

export interface OutcomeCounts {
  cases: number;
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
}

export function countCases(cases: readonly CaseOutcome[]): OutcomeCounts {
  const count = (outcome: Outcome) => cases.filter((c) => c.outcome === outcome).length;
  return { cases: cases.length, passed: count('passed'), failed: count('failed'), errors: count('error'), skipped: count('skipped') };
}
