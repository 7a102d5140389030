import { type ExitCodeValue, mostSevere } from '../errors.js';
import type { CaseScope } from './case-scope.js';
import { type DataRow, iterationName, type ScenarioData } from './data.js';
import type { CaseDefinition, Suite } from './file.js';
import { elapsed, type RetryPolicy, runStep, skippedStep } from './run-step.js';
import { inFileOrder, runPool } from './schedule.js';
import type { Outcome, StepExecutor, StepOutcome, StepPlace } from './step-outcome.js';

// Runs suites case by case, step by step, through an executor (steps.ts), never printing: a listener hears of
// each step in file order. --bail, --data (an iteration a row) and --jobs act here (docs/scenarios.md).

/** The row an iteration ran with: its number, line, and the values of the columns the case uses. */
interface IterationRow {
  number: number;
  line: number;
  values: Record<string, string>;
}

export interface CaseOutcome {
  /** The case's name, or for an iteration `case [row 3: 502/7]` (data.ts iterationName). */
  name: string;
  /** The case's name as the file gives it: every iteration of a case has the same. */
  definition: string;
  outcome: Outcome;
  ms: number;
  steps: StepOutcome[];
  row: IterationRow | undefined;
}

interface SuiteOutcome {
  file: string;
  name: string;
  cases: CaseOutcome[];
  ms: number;
}

interface RunListener {
  caseStarted?(suite: Suite, caseName: string): void;
  stepFinished?(suite: Suite, caseName: string, step: StepOutcome): void;
  caseFinished?(suite: Suite, outcome: CaseOutcome): void;
  /** A step is tried again (--retry); heard as it happens, not in file order. */
  stepRetrying?(suite: Suite, caseName: string, step: StepPlace, attempt: number, reason: string): void;
}

export interface RunOptions {
  bail: boolean;
  /** Aborted (Ctrl+C): no new step starts; the rest are skipped. */
  signal?: AbortSignal | undefined;
  listener?: RunListener;
  /** Cases and iterations at once (--jobs, default 1). */
  jobs?: number;
  /** Tries again for a step that could not do its job (--retry, default 0). */
  retries?: number;
  /** The wait before the first retry, doubling after (half a second unless a test sets it). */
  retryDelayMs?: number;
}

export interface RunResult {
  suites: SuiteOutcome[];
  /** 0 all passed, 1 an assertion failed, else the most severe step error (4, 5 > 3 > 2 > 1). */
  exitCode: ExitCodeValue;
  interrupted: boolean;
}

export interface SuiteInput {
  suite: Suite;
  vars: ReadonlyMap<string, string>;
  /** --data: the rows the cases that use `${row.x}` run over. */
  data?: ScenarioData | undefined;
}

/** One run of one case: with a row when the case uses one. */
interface Unit {
  suiteIndex: number;
  suite: Suite;
  vars: ReadonlyMap<string, string>;
  definition: CaseDefinition;
  name: string;
  row: IterationRow | undefined;
}

function unitsOf(inputs: readonly SuiteInput[]): Unit[] {
  return inputs.flatMap(({ suite, vars, data }, suiteIndex) =>
    suite.cases.flatMap((definition): Unit[] => {
      const base = { suiteIndex, suite, vars, definition };
      if (data === undefined || definition.rowColumns.length === 0)
        return [{ ...base, name: definition.name, row: undefined }];
      const columns = data.columns.filter((column) => definition.rowColumns.includes(column));
      return data.rows.map((row: DataRow) => ({
        ...base,
        name: iterationName(definition.name, row, columns),
        row: {
          number: row.number,
          line: row.line,
          values: Object.fromEntries(columns.map((column) => [column, row.values[column] ?? ''])),
        },
      }));
    }),
  );
}

interface CaseRun {
  execute: StepExecutor;
  options: RunOptions;
  /** The listener's calls for this unit, in file order. */
  emit: (event: () => void) => void;
  /** Set when the unit is not to start at all (--bail, Ctrl+C before it). */
  skipWhole: boolean;
  exitCodes: ExitCodeValue[];
}

async function runCase(unit: Unit, run: CaseRun): Promise<CaseOutcome> {
  const { options, emit } = run;
  const listener = options.listener ?? {};
  const { suite, definition, name } = unit;
  const caseStarted = performance.now();
  const where = `case ${JSON.stringify(name)}`;
  const scope: CaseScope = {
    vars: Object.fromEntries(unit.vars),
    row: unit.row?.values,
    records: new Map(),
    replays: new Map(),
    lastPayment: undefined,
  };
  const retry: RetryPolicy = {
    retries: options.retries ?? 0,
    delayMs: options.retryDelayMs ?? 500,
    signal: options.signal,
    onRetry: (step, attempt, reason) => listener.stepRetrying?.(suite, name, step, attempt, reason),
  };
  const steps: StepOutcome[] = [];
  if (!run.skipWhole) emit(() => listener.caseStarted?.(suite, name));
  for (const step of definition.steps) {
    if (run.skipWhole || options.signal?.aborted === true || steps.some((s) => s.outcome !== 'passed')) {
      const skipped = skippedStep(step);
      steps.push(skipped);
      if (!run.skipWhole) emit(() => listener.stepFinished?.(suite, name, skipped));
      continue;
    }
    const { exitCode, ...outcome } = await runStep(step, where, scope, run.execute, retry);
    run.exitCodes.push(exitCode);
    steps.push(outcome);
    emit(() => listener.stepFinished?.(suite, name, outcome));
  }
  const worst = (['error', 'failed'] as const).find((o) => steps.some((s) => s.outcome === o));
  const outcome: CaseOutcome = {
    name,
    definition: definition.name,
    outcome: worst ?? (steps.every((s) => s.outcome === 'skipped') ? 'skipped' : 'passed'),
    ms: elapsed(caseStarted),
    steps,
    row: unit.row,
  };
  emit(() => listener.caseFinished?.(suite, outcome));
  return outcome;
}

export async function runSuites(
  inputs: readonly SuiteInput[],
  execute: StepExecutor,
  options: RunOptions,
): Promise<RunResult> {
  const units = unitsOf(inputs);
  const order = inFileOrder(units.length);
  const outcomes: CaseOutcome[] = [];
  const exitCodes: ExitCodeValue[] = [];
  // Each suite's time: from its first case's start to its last case's end.
  const spans = inputs.map(() => ({ start: Number.POSITIVE_INFINITY, end: 0 }));
  let stopped = false;
  await runPool(units.length, options.jobs ?? 1, async (index) => {
    const unit = units[index]!;
    const span = spans[unit.suiteIndex]!;
    span.start = Math.min(span.start, performance.now());
    stopped ||= options.signal?.aborted === true;
    const emit = (event: () => void) => order.emit(index, event);
    const outcome = await runCase(unit, { execute, options, emit, skipWhole: stopped, exitCodes });
    outcomes[index] = outcome;
    span.end = Math.max(span.end, performance.now());
    order.finish(index);
    if (options.bail && (outcome.outcome === 'failed' || outcome.outcome === 'error')) stopped = true;
  });
  const suites = inputs.map(({ suite }, suiteIndex): SuiteOutcome => {
    const span = spans[suiteIndex]!;
    return {
      file: suite.file,
      name: suite.name,
      cases: outcomes.filter((_outcome, i) => units[i]!.suiteIndex === suiteIndex),
      ms: span.end === 0 ? 0 : Math.round(span.end - span.start),
    };
  });
  return { suites, exitCode: mostSevere(exitCodes), interrupted: options.signal?.aborted === true };
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
  return {
    cases: cases.length,
    passed: count('passed'),
    failed: count('failed'),
    errors: count('error'),
    skipped: count('skipped'),
  };
}
