import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioFileError } from '../../src/scenario/file.js';
import { parseVarFlags, VarError, varsFor } from '../../src/scenario/vars.js';

const parse = (source: string) => parseScenario(source, 'test.yaml');
const fails = (source: string) => {
  try {
    parse(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioFileError);
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};

describe('scenario files', () => {
  it('reads steps, ids, credentials and expectations, and keeps every number as its text', () => {
    const suite = parse(`
name: money
vars: { amount: 10.630 }
cases:
  - name: pays
    steps:
      - check: { service: 102, account: acct, currency: USD }
      - pay: { service: 102, account: acct, currency: USD, invoice-id: 7010, amount: 10.630, txn-id: 9223372036854775807 }
        id: first
        credentials: { password: nope }
        expect:
          status: 10
          state: success
          amount: { equals: 10.630, matches: '^\\d+\\.\\d{3}$' }
          envelope.TransactionContent.Extras[*].FieldValue@json.InvoiceId: { type: number }
`);
    expect(suite.name).toBe('money');
    expect(suite.vars).toEqual({ amount: '10.630' });
    const [check, pay] = suite.cases[0]!.steps;
    expect(check).toMatchObject({ kind: 'check', number: 1, options: { service: '102' } });
    expect(pay).toMatchObject({
      kind: 'pay',
      number: 2,
      id: 'first',
      credentials: { password: 'nope' },
      options: { 'invoice-id': '7010', amount: '10.630', 'txn-id': '9223372036854775807' },
    });
    expect(pay!.expect.map((e) => [e.path, e.matcher])).toEqual([
      ['status', { equals: '10' }],
      ['state', { equals: 'success' }],
      ['amount', { equals: '10.630', matches: '^\\d+\\.\\d{3}$' }],
      ['envelope.TransactionContent.Extras[*].FieldValue@json.InvoiceId', { type: 'number' }],
    ]);
  });

  it('reads JSON as well, and the short forms of status, wait and repeat-pay', () => {
    const suite = parse(
      JSON.stringify({
        cases: [
          {
            name: 'short',
            steps: [
              { pay: { service: '201', account: 'a', amount: '1.00' } },
              { 'repeat-pay': 'pay' },
              { status: '${pay.transactionId}' },
              { wait: null },
            ],
          },
        ],
      }),
    );
    expect(suite.name).toBe('test.yaml');
    expect(suite.cases[0]!.steps.map((s) => [s.kind, s.options])).toEqual([
      ['pay', { service: '201', account: 'a', amount: '1.00' }],
      ['repeat-pay', { of: 'pay' }],
      ['status', { 'txn-id': '${pay.transactionId}' }],
      ['wait', {}],
    ]);
  });

  it('collects the vars a file uses', () => {
    const suite = parse(`
cases:
  - name: a
    steps:
      - check: { service: "\${var.service}", account: "acct-\${var.account_no}" }
        expect: { service: "\${var.service}" }
`);
    expect([...suite.varsUsed].sort()).toEqual(['account_no', 'service']);
  });

  it.each([
    ['not YAML', 'cases: [', 'not valid YAML or JSON'],
    ['no cases', 'name: x', 'cases'],
    [
      'a misspelt option',
      'cases: [{name: a, steps: [{check: {service: "1", acount: x}}]}]',
      'case "a", step 1 (check): Unrecognized key: "acount"',
    ],
    [
      'a missing option',
      'cases: [{name: a, steps: [{check: {service: "1"}}]}]',
      'case "a", step 1 (check): account: is required',
    ],
    [
      'two things in a step',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, status: "1"}]}]',
      'one thing per step, not check and status',
    ],
    ['a step that does nothing', 'cases: [{name: a, steps: [{id: x}]}]', 'say what it does'],
    [
      'invoice and invoice-id together',
      'cases: [{name: a, steps: [{pay: {service: "1", account: x, invoice: 1, invoice-id: 5}}]}]',
      'not both',
    ],
    [
      'raw without amount',
      'cases: [{name: a, steps: [{pay: {service: "1", account: x, invoice-id: 5, raw: true}}]}]',
      'raw sends Amount as written',
    ],
    [
      'a reference to a later step',
      'cases: [{name: a, steps: [{status: "${pay.transactionId}"}, {pay: {service: "1", account: x, amount: 1}}]}]',
      'names no earlier step of this case',
    ],
    [
      'a reference to another case',
      'cases: [{name: a, steps: [{pay: {service: "1", account: x, amount: 1}, id: p}]}, {name: b, steps: [{status: "${p.transactionId}"}]}]',
      'case "b", step 1 (status)',
    ],
    [
      'same-as an unknown step',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {requestId: {same-as: nope}}}]}]',
      'same-as "nope"',
    ],
    ['status with no payment before it', 'cases: [{name: a, steps: [{status: null}]}]', 'there is none before it'],
    [
      'repeat-pay of a check',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, id: c}, {repeat-pay: c}]}]',
      'names no earlier payment',
    ],
    [
      'a bad path',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {"vouchers[x]": {exists: true}}}]}]',
      'path "vouchers[x]"',
    ],
    [
      'a field the step does not have',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {stat: success}}]}]',
      'a check step has no stat',
    ],
    [
      'a bad pattern',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {message: {matches: "(("}}}]}]',
      'matches:',
    ],
    [
      'a decimal-equals that is not a decimal',
      'cases: [{name: a, steps: [{pay: {service: "1", account: x, amount: 1}, expect: {amount: {decimal-equals: "1,5"}}}]}]',
      'decimal-equals "1,5" is not a decimal',
    ],
    [
      'an unknown check',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {message: {like: x}}}]}]',
      'like',
    ],
    [
      'each outside [*]',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, expect: {message: "${each.position}"}}]}]',
      'names no earlier step',
    ],
    [
      'an id used twice',
      'cases: [{name: a, steps: [{check: {service: "1", account: x}, id: c}, {check: {service: "1", account: x}, id: c}]}]',
      'used twice',
    ],
    ['a reserved id', 'cases: [{name: a, steps: [{check: {service: "1", account: x}, id: var}]}]', 'id must not be'],
    [
      'two cases of one name',
      'cases: [{name: a, steps: [{status: fresh}]}, {name: a, steps: [{status: fresh}]}]',
      'two cases have this name',
    ],
  ])('refuses %s, saying where', (_what, source, message) => {
    expect(fails(source)).toContain(message);
  });

  it('accepts the example in docs/scenarios.md', () => {
    const guide = readFileSync('docs/scenarios.md', 'utf8');
    const example = /## A scenario file[\s\S]*?```yaml\n([\s\S]*?)```/.exec(guide)?.[1];
    expect(example).toBeDefined();
    const suite = parseScenario(example!, 'docs/scenarios.md');
    expect(suite.cases[0]!.steps.map((step) => step.kind)).toEqual(['check', 'pay', 'repeat-pay', 'wait']);
  });

  it('accepts the shipped examples', () => {
    for (const file of ['examples/conformance.yaml', 'examples/smoke.yaml']) {
      const suite = parseScenario(readFileSync(file, 'utf8'), file);
      expect(suite.cases.length).toBeGreaterThan(0);
    }
    const conformance = parseScenario(readFileSync('examples/conformance.yaml', 'utf8'), 'c');
    expect([...conformance.varsUsed].sort()).toEqual([
      'account',
      'currency',
      'service',
      'static_amount',
      'static_service',
    ]);
  });
});

describe('vars', () => {
  const suite = parse(`
vars: { service: "101", currency: KZT }
cases: [{name: a, steps: [{check: {service: "\${var.service}", account: "\${var.account}", currency: "\${var.currency}"}}]}]
`);

  it('take --var over the environment over the file', () => {
    const vars = varsFor(suite, parseVarFlags(['account=7011234567', 'service=102']), {
      AGENTPAY_VAR_SERVICE: '201',
      AGENTPAY_VAR_CURRENCY: 'USD',
    });
    expect(Object.fromEntries(vars)).toEqual({ service: '102', currency: 'USD', account: '7011234567' });
    expect(varsFor(suite, new Map(), { AGENTPAY_VAR_ACCOUNT: 'x' }).get('service')).toBe('101');
  });

  it('name every var that nothing sets, and refuse a --var that is not name=value', () => {
    expect(() => varsFor(suite, new Map(), {})).toThrow(/needs --var account=<value> \(or AGENTPAY_VAR_ACCOUNT\)/);
    expect(() => parseVarFlags(['service'])).toThrow(VarError);
    expect(() => parseVarFlags(['ser-vice=1'])).toThrow(/not name=value/);
    expect(parseVarFlags(['note=a=b', 'empty=']).get('note')).toBe('a=b');
  });
});
