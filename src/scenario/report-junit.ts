import { escapeHtml } from './report-html.js';
import { type CaseOutcome, countCases, type RunResult } from './runner.js';

// `--report junit:<path>`: a testsuite per file, a testcase per case or row; a failed assertion is <failure>,
// a step that could not run <error>, a case --bail left out <skipped/>.
// XML 1.0 allows tab, newline, carriage return and the ranges below; anything else is dropped.
const invalidXmlChars = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// HTML's escapes are XML's too (`&#39;` for `'`).
const xmlEscape = (text: string) => escapeHtml(text.replace(invalidXmlChars, ''));

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');
}

function testcase(suiteName: string, outcome: CaseOutcome, skipReason: string): string {
  const open = `    <testcase${attributes({ name: outcome.name, classname: suiteName, time: seconds(outcome.ms) })}`;
  const steps = outcome.steps
    .flatMap((step) => [
      `${step.outcome.padEnd(7)} ${step.number} ${step.name} (${step.ms} ms${step.attempts > 1 ? `, ${step.attempts} attempts` : ''})`,
      ...step.retried.map((why, i) => `        attempt ${i + 1}: ${why}`),
    ])
    .join('\n');
  const failures = outcome.steps.flatMap((step) => step.failures.map((f) => f.message));
  const errors = outcome.steps.flatMap((step) => (step.error ? [step.error] : []));
  const body: string[] = [];
  if (outcome.outcome === 'skipped') body.push(`      <skipped${attributes({ message: skipReason })}/>`);
  if (errors.length > 0) {
    const [first] = errors;
    body.push(
      `      <error${attributes({ message: first!.message, type: first!.type })}>${xmlEscape(errors.map((e) => e.message).join('\n'))}</error>`,
    );
  }
  if (failures.length > 0) {
    body.push(
      `      <failure${attributes({ message: failures[0]!, type: 'AssertionFailure' })}>${xmlEscape(failures.join('\n'))}</failure>`,
    );
  }
  if (outcome.outcome !== 'skipped') body.push(`      <system-out>${xmlEscape(steps)}</system-out>`);
  return `${open}>\n${body.join('\n')}\n    </testcase>`;
}

export function junitXml(result: RunResult, name = 'agentpay scenario'): string {
  const all = result.suites.flatMap((suite) => suite.cases);
  const totals = countCases(all);
  const totalMs = result.suites.reduce((ms, suite) => ms + suite.ms, 0);
  const suites = result.suites.map((suite) => {
    const counts = countCases(suite.cases);
    const head = `  <testsuite${attributes({ name: suite.name, file: suite.file, tests: counts.cases, failures: counts.failed, errors: counts.errors, skipped: counts.skipped, time: seconds(suite.ms) })}>`;
    const skipReason = result.interrupted
      ? 'not run: the run was interrupted (Ctrl+C)'
      : 'not run: --bail stopped the run at an earlier case';
    return [head, ...suite.cases.map((c) => testcase(suite.name, c, skipReason)), '  </testsuite>'].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name, tests: totals.cases, failures: totals.failed, errors: totals.errors, skipped: totals.skipped, time: seconds(totalMs) })}>`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}
