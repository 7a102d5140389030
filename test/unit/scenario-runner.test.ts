import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { en } from '../../src/i18n/en.js';
import { ru } from '../../src/i18n/ru.js';
import { parseLosslessJson } from '../../src/protocol/lossless.js';
import { plainStyle } from '../../src/render/style.js';
import { parseScenario } from '../../src/scenario/file.js';
import { stepLines, summaryLines } from '../../src/scenario/report-human.js';
import { caseJson, stepJson, summaryJson } from '../../src/scenario/report-json.js';
import { junitXml } from '../../src/scenario/report-junit.js';
import { runSuites } from '../../src/scenario/runner.js';
import type { StepExecutor, StepRun } from '../../src/scenario/step-outcome.js';

/** A gateway in a few lines: payments get RequestIDs by TransactionID, service "down" is unreachable. */
function fakeGateway() {
  const runs: StepRun[] = [];
  const requestIds = new Map<string, string>();
  let next = 0;
  const execute: StepExecutor = async (run) => {
    runs.push(run);
    if (run.options.service === 'down') {
      return {
        record: { error: { exitCode: 4, type: 'GatewayUnreachableError', message: 'connection refused' } },
        error: { exitCode: 4, type: 'GatewayUnreachableError', message: 'connection refused' },
      };
    }
    if (run.kind === 'pay' && run.options['dry-run'] === true) return { record: { dryRun: true } };
    if (run.kind === 'pay' || run.kind === 'repeat-pay') {
      const options = (run.kind === 'pay' ? run.options : run.replay) as Record<string, string>;
      const id = options['txn-id'] ?? String(1000 + next++);
      if (!requestIds.has(id)) requestIds.set(id, String(9000 + requestIds.size));
      return {
        record: {
          transactionId: id,
          requestId: requestIds.get(id)!,
          state: run.credentials?.password === 'wrong' ? 'failed' : 'success',
          amount: options.amount,
        },
        replay: { ...options, 'txn-id': id },
      };
    }
    if (run.kind === 'status') {
      const id = String(run.options['txn-id']);
      return {
        record: {
          transactionId: id,
          requestId: requestIds.get(id) ?? null,
          state: requestIds.has(id) ? 'success' : 'failed',
          envelope: parseLosslessJson(`{"RequestID":${requestIds.get(id) ?? 0}}`),
        },
      };
    }
    return { record: { state: 'success', vouchers: [{ orderAmount: '499.00' }, { orderAmount: '2497.00' }] } };
  };
  return { execute, runs };
}

const suiteOf = (source: string, file = 'suite.yaml') => ({
  suite: parseScenario(source, file),
  vars: new Map([['service', '201']]),
});

const suite = suiteOf(`
cases:
  - name: pays & looks <up>
    steps:
      - check: { service: "\${var.service}", account: a }
      - pay: { service: "\${var.service}", account: a, amount: "\${check.vouchers[1].orderAmount}" }
        id: first
        credentials: { password: wrong }
        expect: { amount: "2497.00" }
      - repeat-pay: first
        expect: { requestId: { same-as: first } }
      - status:
        expect: { requestId: { same-as: first }, state: failed }
      - check: { service: "\${var.service}", account: a }
  - name: unreachable
    steps:
      - check: { service: down, account: a }
  - name: unreachable, and expected so
    steps:
      - check: { service: down, account: a }
        expect: { error.exitCode: 4, error.message: { contains: refused } }
`);

describe('the scenario runner', () => {
  it('carries values between steps, repeats a payment with its own credentials, and stops a case at its first failure', async () => {
    const gateway = fakeGateway();
    const result = await runSuites([suite], gateway.execute, { bail: false });
    const [pays, unreachable, expected] = result.suites[0]!.cases;
    expect(gateway.runs[1]).toMatchObject({
      kind: 'pay',
      options: { amount: '2497.00' },
      credentials: { password: 'wrong' },
    });
    expect(gateway.runs[2]).toMatchObject({
      kind: 'repeat-pay',
      options: { of: 'first' },
      credentials: { password: 'wrong' },
      replay: { amount: '2497.00', 'txn-id': '1000' },
    });
    // status with no txn-id looks up the case's last payment
    expect(gateway.runs[3]).toMatchObject({ kind: 'status', options: { 'txn-id': '1000' } });
    expect(pays!.steps.map((s) => s.outcome)).toEqual(['passed', 'passed', 'passed', 'failed', 'skipped']);
    expect(pays!.outcome).toBe('failed');
    expect(pays!.steps[3]!.failures.map((f) => f.message)).toEqual([
      'case "pays & looks <up>", step 4 (status): state: expected "failed", actual "success"',
    ]);
    expect(unreachable).toMatchObject({
      outcome: 'error',
      steps: [
        { outcome: 'error', error: { exitCode: 4, message: 'case "unreachable", step 1 (check): connection refused' } },
      ],
    });
    expect(expected!.outcome).toBe('passed');
    expect(gateway.runs).toHaveLength(6);
    // 4 (unreachable) outranks 1 (an assertion)
    expect(result.exitCode).toBe(4);
  });

  it('exits 1 when only assertions fail, 0 when all pass', async () => {
    const failing = suiteOf('cases: [{name: a, steps: [{check: {service: x, account: a}, expect: {state: failed}}]}]');
    expect((await runSuites([failing], fakeGateway().execute, { bail: false })).exitCode).toBe(1);
    const passing = suiteOf(
      'cases: [{name: a, steps: [{check: {service: x, account: a}, expect: {state: success, "vouchers[0].orderAmount": "499.00"}}]}]',
    );
    const result = await runSuites([passing], fakeGateway().execute, { bail: false });
    expect(result.exitCode).toBe(0);
    expect(result.suites[0]!.cases[0]!.steps[0]!.checks).toBe(2);
  });

  it('a dry run leaves nothing to repeat: status and repeat-pay keep to the last real payment', async () => {
    const gateway = fakeGateway();
    const dry = suiteOf(`
cases:
  - name: a
    steps:
      - pay: { service: x, account: a, amount: "1.00" }
      - pay: { service: x, account: a, amount: "2.00", dry-run: true }
        id: rehearsal
      - status:
      - repeat-pay:
      - repeat-pay: pay
`);
    const result = await runSuites([dry], gateway.execute, { bail: false });
    expect(gateway.runs.slice(2).map((r) => [r.kind, r.options['txn-id'] ?? r.options.of])).toEqual([
      ['status', '1000'],
      ['repeat-pay', 'pay'],
    ]);
    expect(gateway.runs[3]!.replay).toMatchObject({ amount: '1.00' });
    expect(result.suites[0]!.cases[0]!.steps[4]!.failures[0]!.message).toBe(
      'case "a", step 5 (repeat-pay): there is no payment "pay" to repeat (a dry run, or a payment that could not be made, leaves none)',
    );
  });

  it('fails a step whose placeholder has nothing to fill it, without running it', async () => {
    const gateway = fakeGateway();
    const result = await runSuites(
      [
        suiteOf(
          'cases: [{name: a, steps: [{check: {service: x, account: a}}, {pay: {service: x, account: a, amount: "${check.vouchers[7].orderAmount}"}}]}]',
        ),
      ],
      gateway.execute,
      { bail: false },
    );
    expect(result.suites[0]!.cases[0]!.steps[1]!.failures[0]!.message).toBe(
      'case "a", step 2 (pay): ${check.vouchers[7].orderAmount}: check.vouchers[7] is missing (the list has 2)',
    );
    expect(gateway.runs).toHaveLength(1);
    expect(result.exitCode).toBe(1);
  });

  it('--bail skips the cases after the first that fails; an aborted run starts no new step', async () => {
    const gateway = fakeGateway();
    const bailed = await runSuites([suite], gateway.execute, { bail: true });
    expect(bailed.suites[0]!.cases.map((c) => c.outcome)).toEqual(['failed', 'skipped', 'skipped']);
    expect(gateway.runs).toHaveLength(4);

    const controller = new AbortController();
    const stopping: StepExecutor = async (run) => {
      controller.abort();
      return fakeGateway().execute(run);
    };
    const aborted = await runSuites([suite], stopping, { bail: false, signal: controller.signal });
    expect(aborted.interrupted).toBe(true);
    expect(aborted.suites[0]!.cases.flatMap((c) => c.steps).filter((s) => s.outcome !== 'skipped')).toHaveLength(1);
  });
});

describe('scenario reports', () => {
  it('JUnit: valid XML, one testcase per case, failures and errors counted, names escaped', async () => {
    const other = suiteOf(
      'cases: [{name: "quotes \\" & \\u0001 control", steps: [{check: {service: x, account: a}}]}]',
      'other.yaml',
    );
    const result = await runSuites([suite, other], fakeGateway().execute, { bail: false });
    const xml = junitXml(result);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as {
      testsuites: {
        tests: string;
        failures: string;
        errors: string;
        testsuite: {
          name: string;
          tests: string;
          testcase: { name: string; failure?: { message: string }; error?: { message: string } }[] | { name: string };
        }[];
      };
    };
    expect(parsed.testsuites).toMatchObject({ tests: '4', failures: '1', errors: '1' });
    const [first, second] = parsed.testsuites.testsuite;
    expect(first).toMatchObject({ name: 'suite.yaml', tests: '3' });
    const cases = first!.testcase as { name: string; failure?: { message: string }; error?: { message: string } }[];
    expect(cases.map((c) => c.name)).toEqual(['pays & looks <up>', 'unreachable', 'unreachable, and expected so']);
    expect(cases[0]!.failure!.message).toContain('step 4 (status): state: expected "failed", actual "success"');
    expect(cases[1]!.error!.message).toContain('connection refused');
    expect(second!.testcase).toMatchObject({ name: 'quotes " &  control' });
  });

  it('JUnit marks the cases --bail left out as skipped', async () => {
    const xml = junitXml(await runSuites([suite], fakeGateway().execute, { bail: true }));
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('skipped="2"');
    expect(xml.match(/<skipped /g)).toHaveLength(2);
  });

  it('a line per step for a person, and a summary that repeats each failure with its case and step', async () => {
    const result = await runSuites([suite], fakeGateway().execute, { bail: false });
    const steps = result.suites[0]!.cases[0]!.steps;
    expect(stepLines(steps[0]!, plainStyle, en)).toMatch(/^ {4}✓ 1 check 201 for a {2}\d+ ms$/);
    expect(stepLines(steps[3]!, plainStyle, en)).toMatch(
      /✗ 4 status 1000 {2}\d+ ms\n {8}state: expected "failed", actual "success"/,
    );
    expect(stepLines(steps[4]!, plainStyle, en)).toBe('    - 5 check  skipped');
    const summary = summaryLines(result, 1234, plainStyle, en);
    expect(summary).toContain(
      '✗ case "pays & looks <up>", step 4 (status): state: expected "failed", actual "success"',
    );
    expect(summary).toContain('✗ case "unreachable", step 1 (check): connection refused');
    expect(summary).toMatch(/3 cases: 1 passed, 1 failed, 1 errors, 0 skipped \(1\.23 s\)$/);
  });

  it('the same lines in Russian: the made-up step names, the checks and the counts in its words and numbers', async () => {
    const result = await runSuites([suite], fakeGateway().execute, { bail: false });
    const steps = result.suites[0]!.cases[0]!.steps;
    expect(stepLines(steps[0]!, plainStyle, ru)).toMatch(/^ {4}✓ 1 проверка: услуга 201, счёт a {2}\d+ мс$/);
    expect(stepLines(steps[3]!, plainStyle, ru)).toMatch(/\n {8}state: ожидалось — "failed", получено — "success"/);
    expect(stepLines(steps[4]!, plainStyle, ru)).toBe('    - 5 check  пропущен');
    const summary = summaryLines(result, 1234, plainStyle, ru);
    expect(summary).toContain(
      '✗ случай «pays & looks <up>», шаг 4 (status): state: ожидалось — "failed", получено — "success"',
    );
    expect(summary).toMatch(/3 случая: пройдено — 1, не пройдено — 1, с ошибкой — 1, пропущено — 0 \(1,23 с\)$/);
    // The report files keep the English words: data, the same in every language.
    expect(steps[3]!.failures[0]).toMatchObject({ expected: '"failed"', actual: '"success"' });
    expect(steps[0]!.name).toBe('check 201 for a');
  });

  it('--json: a line per step with its record (numbers exact), per case, and a summary', async () => {
    const result = await runSuites([suite], fakeGateway().execute, { bail: false });
    const theCase = result.suites[0]!.cases[0]!;
    const line = stepJson(suite.suite, theCase.name, theCase.steps[3]!);
    expect(line).toContain('"envelope":{"RequestID":9000}');
    expect(JSON.parse(line)).toMatchObject({
      type: 'step',
      case: theCase.name,
      step: 4,
      kind: 'status',
      outcome: 'failed',
      failures: [{ path: 'state', expected: '"failed"', actual: '"success"' }],
    });
    expect(JSON.parse(caseJson(suite.suite, theCase))).toMatchObject({
      type: 'case',
      outcome: 'failed',
      steps: 5,
      failures: 1,
    });
    expect(JSON.parse(summaryJson(result, 10))).toEqual({
      type: 'summary',
      cases: 3,
      passed: 1,
      failed: 1,
      errors: 1,
      skipped: 0,
      ms: 10,
      exitCode: 4,
      interrupted: false,
    });
  });
});
