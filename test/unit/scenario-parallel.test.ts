import { setTimeout as sleep } from 'node:timers/promises';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { parseScenarioData } from '../../src/scenario/data.js';
import { parseScenario } from '../../src/scenario/file.js';
import { escapeHtml, htmlReport } from '../../src/scenario/report-html.js';
import { caseJson, stepJson } from '../../src/scenario/report-json.js';
import { junitXml } from '../../src/scenario/report-junit.js';
import { runSuites } from '../../src/scenario/runner.js';
import type { StepExecutor, StepRun } from '../../src/scenario/step-outcome.js';

const data = parseScenarioData('service,account,wait\n501,1,30\n502,2,0\n503,3,15\n504,4,0\n', 'rows.csv');
const suite = parseScenario(
  `
cases:
  - name: once
    steps:
      - check: { service: "100", account: a }
  - name: per row
    steps:
      - pay: { service: "\${row.service}", account: "\${row.account}", amount: "\${row.wait}" }
      - status:
        expect: { transactionId: "\${pay.transactionId}", service: "\${row.service}" }
`,
  'rows.yaml',
);
const input = { suite, vars: new Map<string, string>(), data };

/** A gateway that takes `amount` milliseconds per payment, and counts what is in flight. */
function slowGateway() {
  let inFlight = 0;
  let most = 0;
  let next = 0;
  const runs: StepRun[] = [];
  const services = new Map<string, unknown>();
  const execute: StepExecutor = async (run) => {
    runs.push(run);
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      if (run.kind === 'pay') {
        await sleep(Number(run.options.amount));
        const transactionId = String(1000 + next++);
        services.set(transactionId, run.options.service);
        return { record: { transactionId, service: run.options.service, state: 'success' }, replay: { transactionId } };
      }
      if (run.kind === 'status')
        return {
          record: { transactionId: run.options['txn-id'], service: services.get(String(run.options['txn-id'])) },
        };
      return { record: { state: 'success' } };
    } finally {
      inFlight--;
    }
  };
  return { execute, runs, most: () => most };
}

describe('data-driven and parallel scenarios', () => {
  it('a case that uses ${row.x} runs once per row, named with it; the others once; each iteration its own scope', async () => {
    const gateway = slowGateway();
    const result = await runSuites([input], gateway.execute, { bail: false, jobs: 1 });
    const cases = result.suites[0]!.cases;
    expect(result.exitCode).toBe(0);
    expect(cases.map((c) => c.name)).toEqual([
      'once',
      'per row [row 1: 501/1/30]',
      'per row [row 2: 502/2/0]',
      'per row [row 3: 503/3/15]',
      'per row [row 4: 504/4/0]',
    ]);
    expect(cases[2]!.row).toEqual({ number: 2, line: 3, values: { service: '502', account: '2', wait: '0' } });
    // The status step of each iteration looked up its own payment.
    const statuses = gateway.runs.filter((r) => r.kind === 'status').map((r) => r.options['txn-id']);
    expect(statuses).toEqual(['1000', '1001', '1002', '1003']);
    const junit = junitXml(result);
    expect(XMLValidator.validate(junit)).toBe(true);
    const names = (
      new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junit) as {
        testsuites: { testsuite: { testcase: { name: string }[] } };
      }
    ).testsuites.testsuite.testcase.map((c) => c.name);
    expect(names).toEqual(cases.map((c) => c.name));
    expect(JSON.parse(caseJson(suite, cases[1]!))).toMatchObject({
      case: 'per row [row 1: 501/1/30]',
      row: { number: 1, line: 2, values: { service: '501' } },
    });
  });

  it('--jobs runs that many at once; outcomes and what the listener hears stay in file order', async () => {
    const gateway = slowGateway();
    const heard: string[] = [];
    const finishedAt: string[] = [];
    const result = await runSuites([input], gateway.execute, {
      bail: false,
      jobs: 3,
      listener: {
        caseStarted: (_suite, name) => heard.push(`start ${name}`),
        stepFinished: (_suite, name, step) => heard.push(`step ${name} ${step.number}`),
        caseFinished: (_suite, outcome) => {
          heard.push(`end ${outcome.name}`);
          finishedAt.push(outcome.name);
        },
      },
    });
    expect(gateway.most()).toBe(3);
    expect(result.exitCode).toBe(0);
    const names = result.suites[0]!.cases.map((c) => c.name);
    expect(finishedAt).toEqual(names);
    const expected = names.flatMap((name, i) => [
      `start ${name}`,
      ...(i === 0 ? [`step ${name} 1`] : [`step ${name} 1`, `step ${name} 2`]),
      `end ${name}`,
    ]);
    expect(heard).toEqual(expected);
    // Each iteration's status still named its own payment, whichever finished first.
    const payments = gateway.runs.filter((r) => r.kind === 'pay').length;
    expect(payments).toBe(4);
    for (const c of result.suites[0]!.cases.slice(1)) {
      expect(c.steps[1]!.record!.transactionId).toBe(c.steps[0]!.record!.transactionId);
    }
  });

  it('--bail with --jobs starts no new case after one fails; those already running end', async () => {
    const failing: StepExecutor = async (run) => {
      await sleep(run.kind === 'check' ? 0 : 20);
      return { record: { state: run.kind === 'check' ? 'failed' : 'success', transactionId: '1' }, replay: {} };
    };
    const bad = parseScenario(
      'cases: [{name: a, steps: [{check: {service: "1", account: a}, expect: {state: success}}]}, {name: b, steps: [{pay: {service: "${row.service}", account: a, amount: "1"}}]}]',
      's.yaml',
    );
    const result = await runSuites([{ suite: bad, vars: new Map(), data }], failing, { bail: true, jobs: 2 });
    expect(result.suites[0]!.cases.map((c) => c.outcome)).toEqual([
      'failed',
      'passed',
      'skipped',
      'skipped',
      'skipped',
    ]);
  });
});

describe('--retry', () => {
  const retrySuite = parseScenario(
    `
cases:
  - name: r
    steps:
      - pay: { service: "1", account: a, amount: "1" }
      - check: { service: "1", account: a }
      - check: { service: "2", account: a }
        expect: { error.exitCode: 4 }
`,
    'r.yaml',
  );

  /** Answers each step as told by the attempt: `plan[kind][attempt - 1]`. */
  function planned(plan: Record<string, ('unreachable' | 'unknown' | 'refused' | 'usage' | 'ok')[]>) {
    const runs: StepRun[] = [];
    const execute: StepExecutor = async (run) => {
      runs.push(run);
      const key = `${run.kind}${run.options.service}`;
      const what = plan[key]?.[run.attempt! - 1] ?? 'ok';
      const kept = run.kept!;
      kept.transactionId ??= String(7000 + runs.length);
      const record = {
        transactionId: kept.transactionId,
        state: what === 'refused' ? 'failed' : what === 'unknown' ? 'unknown' : 'success',
        message: 'the answer was lost',
      };
      const unreachable = { exitCode: 4 as const, type: 'GatewayUnreachableError', message: 'connection refused' };
      const usage = { exitCode: 2 as const, type: 'UsageError', message: 'bad amount' };
      if (what === 'unreachable') return { record: { ...record, error: unreachable }, error: unreachable };
      if (what === 'usage') return { record: { ...record, error: usage }, error: usage };
      return { record, ...(what === 'unknown' ? { exitCode: 3 as const } : {}) };
    };
    return { execute, runs };
  }

  it('tries a step that could not do its job again, with what it kept (the same TransactionID), and counts the attempts', async () => {
    const gateway = planned({
      pay1: ['unknown', 'unreachable', 'ok'],
      check1: ['unreachable', 'ok'],
      check2: ['unreachable', 'unreachable', 'unreachable'],
    });
    const result = await runSuites([{ suite: retrySuite, vars: new Map() }], gateway.execute, {
      bail: false,
      retries: 2,
      retryDelayMs: 0,
    });
    const [pay, check, expected] = result.suites[0]!.cases[0]!.steps;
    expect(result.exitCode).toBe(0);
    expect(pay).toMatchObject({
      outcome: 'passed',
      attempts: 3,
      retried: ['the outcome of payment 7001 is unknown (the answer was lost)', 'connection refused'],
    });
    const pays = gateway.runs.filter((r) => r.kind === 'pay');
    expect(pays.map((r) => r.attempt)).toEqual([1, 2, 3]);
    expect(new Set(pays.map((r) => r.kept))).toHaveLength(1);
    expect(pays.map((r) => r.kept!.transactionId)).toEqual(['7001', '7001', '7001']);
    expect(check).toMatchObject({ outcome: 'passed', attempts: 2 });
    // A step that expects the error is not tried again.
    expect(expected).toMatchObject({ attempts: 1 });
    expect(JSON.parse(stepJson(retrySuite, 'r', pay!))).toMatchObject({
      attempts: 3,
      retried: [expect.stringContaining('unknown'), 'connection refused'],
    });
  });

  it('never tries again a gateway refusal or input refused before sending; stops after n retries', async () => {
    const refused = planned({ pay1: ['refused'] });
    const first = await runSuites([{ suite: retrySuite, vars: new Map() }], refused.execute, {
      bail: false,
      retries: 3,
      retryDelayMs: 0,
    });
    expect(first.suites[0]!.cases[0]!.steps[0]).toMatchObject({ attempts: 1 });
    const usage = planned({ pay1: ['usage'] });
    const second = await runSuites([{ suite: retrySuite, vars: new Map() }], usage.execute, {
      bail: false,
      retries: 3,
      retryDelayMs: 0,
    });
    expect(second.suites[0]!.cases[0]!.steps[0]).toMatchObject({ attempts: 1, outcome: 'error' });
    const down = planned({ pay1: ['unreachable', 'unreachable', 'unreachable'] });
    const third = await runSuites([{ suite: retrySuite, vars: new Map() }], down.execute, {
      bail: false,
      retries: 1,
      retryDelayMs: 0,
    });
    expect(third.suites[0]!.cases[0]!.steps[0]).toMatchObject({
      attempts: 2,
      outcome: 'error',
      retried: ['connection refused'],
    });
    expect(third.exitCode).toBe(4);
  });
});

describe('the HTML report', () => {
  const injected = '<img src=x onerror=alert(1)>';
  const htmlSuite = parseScenario(
    `
name: "<b>suite</b>"
cases:
  - name: passes first in the file
    steps:
      - check: { service: "1", account: a }
  - name: "fails & <script>alert(2)</script>"
    steps:
      - check: { service: "1", account: a }
        expect: { "vouchers[0].name": "500 coins" }
`,
    'h.yaml',
  );
  const execute: StepExecutor = async () => ({
    record: {
      state: 'success',
      vouchers: [{ name: injected }],
      request: { AgentID: '1', AgentPassword: '***' },
      envelope: { Message: `"quoted" ${injected}` },
    },
  });

  it('escapes everything, shows failures first with expected and actual, and loads nothing', async () => {
    const result = await runSuites([{ suite: htmlSuite, vars: new Map() }], execute, { bail: false });
    const html = htmlReport(result, 1500);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/(src|href)="/);
    expect(html.indexOf('fails &amp; &lt;script&gt;')).toBeLessThan(html.indexOf('passes first in the file'));
    expect(html).toMatch(/<details class="case failed" open>/);
    expect(html).toMatch(
      /<td class="expected">&quot;500 coins&quot;<\/td><td class="actual">&quot;&lt;img src=x onerror=alert\(1\)&gt;&quot;<\/td>/,
    );
    expect(html).toContain('&quot;AgentPassword&quot;: &quot;***&quot;');
  });

  it('says a skipped step once, without a time it never took', async () => {
    const suite = parseScenario(
      `
cases:
  - name: stops at the first failure
    steps:
      - check: { service: "1", account: a }
        expect: { "vouchers[0].name": "500 coins" }
      - check: { service: "1", account: b }
`,
      's.yaml',
    );
    const html = htmlReport(await runSuites([{ suite, vars: new Map() }], execute, { bail: false }), 10);
    expect(html).toMatch(/<span class="meta">step 2 \(check\), skipped<\/span>/);
    expect(html).not.toContain('skipped, skipped');
  });
});
