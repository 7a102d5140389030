import { shownText } from '../render/sanitize.js';
import type { Style } from '../render/style.js';
import type { Suite } from './file.js';
import { type CaseOutcome, countCases, type RunResult, type StepOutcome } from './runner.js';

/**
 * What a person reads while a scenario runs: a heading per suite and case, a line per step
 * as it ends (✓ or ✗ and its time), what went wrong under a step that failed, and at the
 * end a summary with every failure again, each naming its case and step. Names come from the
 * scenario file, values and reasons from the gateway: each shown through shownText.
 */
export function suiteHeading(suite: Suite, style: Style): string {
  const cases = `${suite.cases.length} case${suite.cases.length === 1 ? '' : 's'}`;
  return style.heading(
    shownText(suite.name === suite.file ? `${suite.file} (${cases})` : `${suite.name} — ${suite.file} (${cases})`),
  );
}

export function caseHeading(caseName: string, style: Style): string {
  return `  ${style.strong(shownText(caseName))}`;
}

const marks = (style: Style) => ({
  passed: style.success('✓'),
  failed: style.failure('✗'),
  error: style.failure('✗'),
  skipped: style.dim('-'),
});

export function stepLines(step: StepOutcome, style: Style): string {
  const mark = marks(style)[step.outcome];
  const tries = step.attempts > 1 ? `, ${step.attempts} attempts` : '';
  const time = step.outcome === 'skipped' ? style.dim('skipped') : style.dim(`${step.ms} ms${tries}`);
  const lines = [`    ${mark} ${step.number} ${shownText(step.name)}  ${time}`];
  for (const failure of step.failures) {
    lines.push(
      `        ${style.failure(shownText(failure.path ? `${failure.path}: expected ${failure.expected}, actual ${failure.actual}` : failure.expected))}`,
    );
  }
  if (step.error)
    lines.push(
      `        ${style.failure(`${shownText(step.error.reason)} (${step.error.type}, exit ${step.error.exitCode})`)}`,
    );
  return lines.join('\n');
}

export function skippedCaseLine(outcome: CaseOutcome, why: string, style: Style): string {
  return `  ${marks(style).skipped} ${shownText(outcome.name)}  ${style.dim(`skipped (${why})`)}`;
}

export function summaryLines(result: RunResult, ms: number, style: Style): string {
  const cases = result.suites.flatMap((suite) => suite.cases);
  const counts = countCases(cases);
  const problems = cases
    .flatMap((c) => c.steps)
    .flatMap((step) => [...step.failures.map((f) => f.message), ...(step.error ? [step.error.message] : [])]);
  const parts = [
    `${counts.passed} passed`,
    `${counts.failed} failed`,
    `${counts.errors} errors`,
    `${counts.skipped} skipped`,
  ];
  const colour = counts.failed + counts.errors > 0 ? style.failure : style.success;
  const lines = [
    colour(`${counts.cases} case${counts.cases === 1 ? '' : 's'}: ${parts.join(', ')} (${(ms / 1000).toFixed(2)} s)`),
  ];
  if (problems.length > 0)
    lines.unshift(
      '',
      style.strong('Failures:'),
      ...problems.map((message) => `  ${style.failure('✗')} ${shownText(message)}`),
      '',
    );
  if (result.interrupted) lines.push(style.pending('interrupted: the steps after Ctrl+C did not run'));
  return lines.join('\n');
}
