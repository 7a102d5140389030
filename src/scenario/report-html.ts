import { stringifyLosslessJson } from '../protocol/lossless.js';
import { type CaseOutcome, countCases, type RunResult } from './runner.js';
import type { Outcome, StepOutcome } from './step-outcome.js';

// `--report html:<path>`: one self-contained page (inline CSS, no script) with counts, then cases, failures
// first. What came from a gateway or a file passes `escapeHtml`; the page's CSP also forbids scripts and loads.
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const styles = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f;background:#fff}
h1{font-size:1.3rem;margin:0 0 .3rem}
.counts span{margin-right:1rem}
details.case{border:1px solid #ccc;border-radius:6px;margin:.6rem 0;padding:.3rem .7rem}
details.case>summary{cursor:pointer;font-weight:600}
.failed>summary,.error>summary{color:#b00020}.passed>summary{color:#1b7f3b}.skipped>summary{color:#777}
.mark{display:inline-block;width:1.2em}
.meta{color:#666;font-weight:400;font-size:.9em}
.step{border-top:1px solid #eee;padding:.4rem 0}
.step h3{font-size:1rem;margin:.2rem 0}
table{border-collapse:collapse;margin:.3rem 0}
th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
td.expected,td.actual{font-family:ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:.2rem 0}
.problem{color:#b00020}
`;

const marks: Record<Outcome, string> = { failed: '✗', error: '✗', passed: '✓', skipped: '-' };
const order: Record<Outcome, number> = { error: 0, failed: 0, passed: 1, skipped: 2 };

function block(title: string, value: unknown, open: boolean): string {
  if (value === undefined || value === null) return '';
  return `<details${open ? ' open' : ''}><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(stringifyLosslessJson(value, 2))}</pre></details>`;
}

function failuresTable(step: StepOutcome): string {
  if (step.failures.length === 0) return '';
  const rows = step.failures.map(
    (f) =>
      `<tr><td>${escapeHtml(f.path || '(step)')}</td><td>${escapeHtml(f.check)}</td><td class="expected">${escapeHtml(f.expected)}</td><td class="actual">${escapeHtml(f.actual)}</td></tr>`,
  );
  return `<table class="failures"><tr><th>path</th><th>check</th><th>expected</th><th>actual</th></tr>${rows.join('')}</table>`;
}

function stepSection(step: StepOutcome): string {
  const bad = step.outcome === 'failed' || step.outcome === 'error';
  const tries = step.attempts > 1 ? `, ${step.attempts} attempts` : '';
  // A skipped step never ran: its outcome says so, with no time after it.
  const meta =
    step.outcome === 'skipped' ? [step.label, step.outcome] : [step.label, step.outcome, `${step.ms} ms${tries}`];
  const { request, envelope, ...seen } = step.record ?? {};
  const parts = [
    `<h3><span class="mark">${marks[step.outcome]}</span>${escapeHtml(`${step.number} ${step.name}`)} <span class="meta">${escapeHtml(meta.join(', '))}</span></h3>`,
    failuresTable(step),
    step.error
      ? `<p class="problem">${escapeHtml(`${step.error.reason} (${step.error.type}, exit ${step.error.exitCode})`)}</p>`
      : '',
    step.retried.length > 0
      ? `<ol class="retried">${step.retried.map((why, i) => `<li>${escapeHtml(`attempt ${i + 1}: ${why}`)}</li>`).join('')}</ol>`
      : '',
    block('request sent', request, bad),
    block("the gateway's answer", envelope, bad),
    block('record', step.record === undefined ? undefined : seen, false),
  ];
  return `<section class="step ${step.outcome}">${parts.join('')}</section>`;
}

function caseSection(file: string, outcome: CaseOutcome): string {
  const bad = outcome.outcome === 'failed' || outcome.outcome === 'error';
  const row =
    outcome.row === undefined
      ? ''
      : `<table class="row"><tr><th>row ${outcome.row.number} (line ${outcome.row.line})</th>${Object.entries(
          outcome.row.values,
        )
          .map(([column, value]) => `<td>${escapeHtml(`${column}: ${value}`)}</td>`)
          .join('')}</tr></table>`;
  const summary = `<summary><span class="mark">${marks[outcome.outcome]}</span>${escapeHtml(outcome.name)} <span class="meta">${escapeHtml(`${outcome.outcome}, ${file}, ${outcome.ms} ms`)}</span></summary>`;
  return `<details class="case ${outcome.outcome}"${bad ? ' open' : ''}>${summary}${row}${outcome.steps.map(stepSection).join('')}</details>`;
}

export function htmlReport(result: RunResult, ms: number, title = 'agentpay scenario'): string {
  const counts = countCases(result.suites.flatMap((suite) => suite.cases));
  const cases = result.suites
    .flatMap((suite) => suite.cases.map((outcome) => ({ file: suite.file, outcome })))
    .map((entry, position) => ({ ...entry, position }))
    .sort((a, b) => order[a.outcome.outcome] - order[b.outcome.outcome] || a.position - b.position);
  const files = result.suites
    .map((suite) => `<li>${escapeHtml(suite.name === suite.file ? suite.file : `${suite.name} (${suite.file})`)}</li>`)
    .join('');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title><style>${styles}</style></head><body>`,
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="counts"><span>${counts.cases} cases</span><span>${counts.passed} passed</span><span>${counts.failed} failed</span><span>${counts.errors} errors</span><span>${counts.skipped} skipped</span><span>${(ms / 1000).toFixed(2)} s</span>${result.interrupted ? '<span class="problem">interrupted</span>' : ''}</p>`,
    `<ul class="files">${files}</ul>`,
    ...cases.map(({ file, outcome }) => caseSection(file, outcome)),
    '</body></html>',
    '',
  ].join('\n');
}
