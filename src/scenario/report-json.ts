import { stringifyLosslessJson } from '../protocol/lossless.js';
import type { Suite } from './file.js';
import { type CaseOutcome, countCases, type RunResult } from './runner.js';
import type { StepOutcome } from './step-outcome.js';

// --json: a line per step as it ends, one per case, a summary last, each with a `type`; a step's `record`
// holds the gateway's `envelope` with its numbers exact.
export function stepJson(suite: Suite, caseName: string, step: StepOutcome): string {
  return stringifyLosslessJson({
    type: 'step',
    file: suite.file,
    suite: suite.name,
    case: caseName,
    step: step.number,
    kind: step.kind,
    id: step.id ?? null,
    name: step.name,
    outcome: step.outcome,
    ms: step.ms,
    attempts: step.attempts,
    retried: step.retried,
    checks: step.checks,
    failures: step.failures.map(({ path, check, expected, actual, message }) => ({
      path,
      check,
      expected,
      actual,
      message,
    })),
    error: step.error ? { exitCode: step.error.exitCode, type: step.error.type, message: step.error.message } : null,
    record: step.record ?? null,
  });
}

export function caseJson(suite: Suite, outcome: CaseOutcome): string {
  return JSON.stringify({
    type: 'case',
    file: suite.file,
    suite: suite.name,
    case: outcome.name,
    row: outcome.row ?? null,
    outcome: outcome.outcome,
    ms: outcome.ms,
    steps: outcome.steps.length,
    failures: outcome.steps.reduce((n, step) => n + step.failures.length, 0),
  });
}

export function summaryJson(result: RunResult, ms: number): string {
  return JSON.stringify({
    type: 'summary',
    ...countCases(result.suites.flatMap((suite) => suite.cases)),
    ms,
    exitCode: result.exitCode,
    interrupted: result.interrupted,
  });
}
