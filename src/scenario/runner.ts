import { type ExitCodeValue, mostSevere } from '../errors.js';
import type { AssertionResult } from './assertions.js';
import type { CaseDefinition, StepKind, StepOptions, Suite } from './file.js';
import { type CaseScope, elapsed, runStep, skippedStep } from './run-step.js';

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

interface SuiteOutcome {
  file: string;
  name: string;
  cases: CaseOutcome[];
  ms: number;
}

interface RunListener {
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
      const caseOutcome: CaseOutcome = {
        name: definition.name,
        outcome: worst ?? (steps.every((s) => s.outcome === 'skipped') ? 'skipped' : 'passed'),
        ms: elapsed(caseStarted),
        steps,
      };
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
