import type { Catalogue } from '../i18n/en.js';
import { shownText } from '../render/sanitize.js';
import type { Style } from '../render/style.js';
import type { Suite } from './file.js';
import { describeStep } from './run-step.js';
import { type CaseOutcome, countCases, type RunResult } from './runner.js';
import type { Failure, StepOutcome } from './step-outcome.js';

// What a person reads while a scenario runs: headings, a line per step as it ends, what went wrong, a summary.
// Worded by the catalogue (reports and --json keep English: data); outside text shown through shownText.
export function suiteHeading(suite: Suite, style: Style, said: Catalogue): string {
  const cases = said.scenario.cases(suite.cases.length);
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

/** A failed check: its path, what was wanted and what was there. */
function failureText(failure: Failure, said: Catalogue): string {
  const expected = said.scenario.expected(failure.wanted);
  return failure.path ? said.scenario.failure(failure.path, expected, said.scenario.actual(failure.found)) : expected;
}

export function stepLines(step: StepOutcome, style: Style, said: Catalogue): string {
  const words = said.scenario;
  const mark = marks(style)[step.outcome];
  const tries = step.attempts > 1 ? words.attempts(step.attempts) : '';
  const time = step.outcome === 'skipped' ? style.dim(words.skipped) : style.dim(`${words.ms(step.ms)}${tries}`);
  const name = step.nameFrom === undefined ? step.name : describeStep(step.kind, step.nameFrom, words.step);
  const lines = [`    ${mark} ${step.number} ${shownText(name)}  ${time}`];
  for (const failure of step.failures) lines.push(`        ${style.failure(shownText(failureText(failure, said)))}`);
  if (step.error)
    lines.push(
      `        ${style.failure(shownText(words.stepError(step.error.reason, step.error.type, step.error.exitCode)))}`,
    );
  return lines.join('\n');
}

export function skippedCaseLine(outcome: CaseOutcome, why: string, style: Style, said: Catalogue): string {
  return `  ${marks(style).skipped} ${shownText(outcome.name)}  ${style.dim(said.scenario.skippedCase(why))}`;
}

/** One failure (or error) of the summary: where, what, and which iterations of its case had it. */
interface Problem {
  where: string;
  text: string;
  /** The iterations' rows that had it, under --data; none for a case that runs once. */
  rows: number[];
  /** How many times its case ran (its iterations). */
  runs: number;
}

// The run's failures, each once: the same failure in every iteration of a data-driven case is one line with
// how many runs had it.
function problemsOf(result: RunResult, said: Catalogue): Problem[] {
  const words = said.scenario;
  const problems = new Map<string, Problem>();
  for (const [suiteIndex, suite] of result.suites.entries()) {
    const runs = new Map<string, number>();
    for (const c of suite.cases) runs.set(c.definition, (runs.get(c.definition) ?? 0) + 1);
    for (const c of suite.cases)
      for (const step of c.steps) {
        const iterated = c.row !== undefined;
        const where = words.where(iterated ? c.definition : c.name, step.number, step.kind, step.id);
        const texts = [
          ...step.failures.map((failure) => failureText(failure, said)),
          ...(step.error ? [step.error.reason] : []),
        ];
        for (const text of texts) {
          const key = JSON.stringify([suiteIndex, iterated ? c.definition : c.name, where, text]);
          const problem = problems.get(key) ?? { where, text, rows: [], runs: runs.get(c.definition) ?? 1 };
          if (c.row !== undefined) problem.rows.push(c.row.number);
          problems.set(key, problem);
        }
      }
  }
  return [...problems.values()];
}

function problemLine({ where, text, rows, runs }: Problem, said: Catalogue): string {
  const line = `${where}: ${text}`;
  return rows.length === 0 ? line : `${line} — ${said.scenario.ofRuns(rows.length, runs, rows)}`;
}

export function summaryLines(result: RunResult, ms: number, style: Style, said: Catalogue): string {
  const words = said.scenario;
  const cases = result.suites.flatMap((suite) => suite.cases);
  const counts = countCases(cases);
  const problems = problemsOf(result, said).map((problem) => problemLine(problem, said));
  const colour = counts.failed + counts.errors > 0 ? style.failure : style.success;
  const lines = [colour(words.summary(words.cases(counts.cases), counts, words.seconds(ms)))];
  if (problems.length > 0)
    lines.unshift(
      '',
      style.strong(words.failures),
      ...problems.map((message) => `  ${style.failure('✗')} ${shownText(message)}`),
      '',
    );
  if (result.interrupted) lines.push(style.pending(words.interrupted));
  return lines.join('\n');
}
