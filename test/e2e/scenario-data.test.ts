import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { refusedAccount, sandboxCredentials } from '../../src/sandbox/catalogue.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';
import { jsonLines, runCli } from '../helpers/cli.js';
import { paymentsReceived, sandboxWithEnv } from '../helpers/gateway-env.js';

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const example = 'examples/data-driven/top-ups.yaml';
const exampleRows = 'examples/data-driven/top-ups.csv';

function testcaseNames(xml: string): string[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testcase',
  }).parse(xml) as {
    testsuites: { testsuite: { testcase: { name: string }[] } };
  };
  return parsed.testsuites.testsuite.testcase.map((c) => c.name);
}

describe('agentpay scenario --data --jobs', () => {
  it('the example runs a case per row, four at a time, each its own TransactionID, reports in file order', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const report = join(started.env.HOME!, 'reports', 'rows.xml');
    const result = await runCli(
      ['--json', 'scenario', example, '--data', exampleRows, '--jobs', '4', '--report', `junit:${report}`],
      { env: started.env },
    );
    expect(jsonLines(result.stderr)).toEqual([{ note: `JUnit report written to ${report}` }]);
    expect(result.code).toBe(0);
    const rows = readFileSync(exampleRows, 'utf8').trim().split('\n').slice(1);
    const names = rows.map((line, i) => {
      const [service, account, currency, invoice, amount, state] = line.split(',');
      return `a top-up [row ${i + 1}: ${service}/${account}/${currency}/${invoice}/${amount}/${state}]`;
    });
    expect(testcaseNames(readFileSync(report, 'utf8'))).toEqual(names);
    const lines = jsonLines(result.stdout);
    expect(lines.filter((l) => l.type === 'case').map((l) => l.case)).toEqual(names);
    // A case's lines come together, in file order, whatever finished first.
    expect(lines.filter((l) => l.type === 'step').map((l) => `${String(l.case)} ${String(l.step)}`)).toEqual(
      names.flatMap((name) => [`${name} 1`, `${name} 2`]),
    );
    const payments = paymentsReceived(started.sandbox);
    expect(payments).toHaveLength(rows.length);
    expect(new Set(payments.map((form) => form.get('TransactionID'))).size).toBe(rows.length);
    expect(payments.map((form) => form.get('Amount')).sort()).toEqual(rows.map((line) => line.split(',')[4]).sort());
  });

  it('a row may expect a refused account check: state failed is data, not an error, and no Payment is sent', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const file = join(started.env.HOME!, 'refusals.yaml');
    writeFileSync(
      file,
      'cases:\n  - name: a top-up\n    steps:\n      - pay: { service: "101", account: "${row.account}", currency: KZT, invoice: "1" }\n        expect: { state: "${row.state}" }\n',
    );
    const rows = join(started.env.HOME!, 'refusals.csv');
    writeFileSync(rows, `account,state\n7011234567,success\n${refusedAccount},failed\n`);
    const result = await runCli(['--json', 'scenario', file, '--data', rows], { env: started.env });
    expect(result.code).toBe(0);
    const cases = jsonLines(result.stdout).filter((line) => line.type === 'case');
    expect(cases.map((line) => line.outcome)).toEqual(['passed', 'passed']);
    expect(paymentsReceived(started.sandbox).map((form) => form.get('Account'))).toEqual(['7011234567']);
  });

  it('the same failure in several runs of a case is one line of the summary, with its runs and rows (en, ru)', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const file = join(started.env.HOME!, 'expects-success.yaml');
    writeFileSync(
      file,
      'cases:\n  - name: a top-up\n    steps:\n      - check: { service: "101", account: "7011234567" }\n      - pay: { service: "101", account: "${row.account}", currency: KZT, invoice: "1" }\n        expect: { state: success }\n',
    );
    const rows = join(started.env.HOME!, 'accounts.csv');
    writeFileSync(rows, `account\n${refusedAccount}\n${refusedAccount}\n7011234567\n${refusedAccount}\n`);
    const result = await runCli(['scenario', file, '--data', rows], { env: started.env });
    expect(result.code).toBe(1);
    const summary = result.stdout.slice(result.stdout.indexOf('Failures:'));
    const failures = summary.split('\n').filter((line) => line.startsWith('  ✗ '));
    expect(failures).toEqual([
      '  ✗ case "a top-up", step 2 (pay): state: expected "success", actual "failed" — 3 of 4 runs (rows 1, 2, 4)',
    ]);
    const russian = await runCli(['--lang', 'ru', 'scenario', file, '--data', rows], { env: started.env });
    expect(russian.stdout).toContain('— 3 из 4 прогонов (строки 1, 2, 4)');
  });

  it('a data file without a column a case uses is refused naming its line and column, and nothing is sent (exit 2)', async () => {
    const started = await sandboxWithEnv();
    sandbox = started.sandbox;
    const rows = join(started.env.HOME!, 'rows.csv');
    writeFileSync(rows, 'service,account,currency,invoice,amount\n101,7011234567,KZT,1,499.00\n');
    const missing = await runCli(['scenario', example, '--data', rows], { env: started.env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `agentpay: ${rows}: line 1: no column "state", which case "a top-up" of ${example} uses as \${row.state}`,
    );
    writeFileSync(rows, 'service,account,currency,invoice,amount,state\n101,7011234567,KZT,1,499.00,success\n102,x\n');
    const short = await runCli(['scenario', example, '--data', rows], { env: started.env });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain(`${rows}: line 3: the row has 2 cells, the header 6 columns`);
    const unreadable = await runCli(['scenario', example, '--data', join(started.env.HOME!, 'none.json')], {
      env: started.env,
    });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain('cannot read the data file');
    const noData = await runCli(['scenario', example], { env: started.env });
    expect(noData.code).toBe(2);
    expect(noData.stderr).toContain('uses ${row.service}: give its rows with --data');
    expect(started.sandbox.received).toHaveLength(0);
  });
});

describe('agentpay scenario --retry', () => {
  const payOnce =
    'name: once\ncases:\n  - name: pay\n    steps:\n      - pay: { service: "101", account: "7011234567", currency: KZT, invoice: 2 }\n        expect: { state: success }\n';

  it('a payment whose answer was lost is sent again with the same TransactionID, once paid; the reports show 2 attempts', async () => {
    // The answer to the first Payment is cut after the payment is made; no Status is tried (settle attempts 0).
    const started = await sandboxWithEnv({ faults: { dropAfterCommit: 1 } });
    sandbox = started.sandbox;
    const env: Record<string, string> = { ...started.env, AGENTPAY_SETTLE_ATTEMPTS: '0' };
    const file = join(env.HOME!, 'once.yaml');
    writeFileSync(file, payOnce);
    const report = join(env.HOME!, 'junit.xml');
    const result = await runCli(['--json', 'scenario', file, '--retry', '2', '--report', `junit:${report}`], { env });
    expect(result.code).toBe(0);
    const sent = paymentsReceived(started.sandbox).map((form) => form.get('TransactionID'));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toBe(sent[0]);
    // One payment made: the second Payment found the first.
    expect(started.sandbox.store.size).toBe(1);
    expect(started.sandbox.store.find(sandboxCredentials.agentId, sent[0]!)).toBeDefined();
    const [step] = jsonLines(result.stdout).filter((l) => l.type === 'step');
    expect(step).toMatchObject({
      outcome: 'passed',
      attempts: 2,
      retried: [expect.stringContaining(`the outcome of payment ${sent[0]} is unknown`)],
    });
    expect(result.stderr).toContain('step 1 (pay): trying again (attempt 2 of 3)');
    expect(readFileSync(report, 'utf8')).toContain('2 attempts');
  });

  it('without --retry the same lost answer leaves the payment unknown: exit 3, one Payment sent', async () => {
    const started = await sandboxWithEnv({ faults: { dropAfterCommit: 1 } });
    sandbox = started.sandbox;
    const env: Record<string, string> = { ...started.env, AGENTPAY_SETTLE_ATTEMPTS: '0' };
    const file = join(env.HOME!, 'once.yaml');
    writeFileSync(file, payOnce);
    const result = await runCli(['scenario', file], { env });
    expect(result.code).toBe(3);
    expect(paymentsReceived(started.sandbox)).toHaveLength(1);
  });
});
