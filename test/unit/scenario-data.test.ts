import { describe, expect, it } from 'vitest';
import { checkDataFor, iterationName, parseScenarioData } from '../../src/scenario/data.js';
import { parseScenario, ScenarioFileError } from '../../src/scenario/file.js';

const rowsCase = parseScenario(
  `
cases:
  - name: top-up
    steps:
      - pay: { service: "\${row.service}", account: "\${row.account}", invoice: "1" }
        expect: { amount: "\${row.amount}" }
  - name: plain
    steps:
      - check: { service: "101", account: a }
`,
  'suite.yaml',
);

const dataError = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
};

describe('--data files', () => {
  it('CSV: the header names the columns, every value is text as written, rows keep their lines', () => {
    const data = parseScenarioData(
      '\uFEFFservice,account,amount\r\n502,7,10.630\r\n\r\n101,"multi\nline",0010\r\n',
      'rows.csv',
    );
    expect(data.columns).toEqual(['service', 'account', 'amount']);
    expect(data.rows).toEqual([
      { number: 1, line: 2, values: { service: '502', account: '7', amount: '10.630' } },
      { number: 2, line: 4, values: { service: '101', account: 'multi\nline', amount: '0010' } },
    ]);
  });

  it('JSON and YAML: a list of maps, numbers as written (a Long keeps its digits), with their lines', () => {
    const json = parseScenarioData(
      '[\n  {"service": 502, "account": "7", "amount": 10.630},\n  {"service": 9007199254740993, "account": "8", "amount": "1"}\n]',
      'rows.json',
    );
    expect(json.rows).toEqual([
      { number: 1, line: 2, values: { service: '502', account: '7', amount: '10.630' } },
      { number: 2, line: 3, values: { service: '9007199254740993', account: '8', amount: '1' } },
    ]);
    const yaml = parseScenarioData(
      '- service: "101"\n  account: a\n  amount: 499.00\n- {service: "102", account: b, amount: 26.575, extra: true}\n',
      'rows.yaml',
    );
    expect(yaml.columns).toEqual(['service', 'account', 'amount', 'extra']);
    expect(yaml.rows[1]).toEqual({
      number: 2,
      line: 4,
      values: { service: '102', account: 'b', amount: '26.575', extra: 'true' },
    });
  });

  it('a bad file is refused naming the file, the line and the column', () => {
    expect(dataError(() => parseScenarioData('service,account\n1,2\n3\n', 'rows.csv'))).toBe(
      'rows.csv: line 3: the row has 1 cells, the header 2 columns',
    );
    expect(dataError(() => parseScenarioData('service,service\n1,2\n', 'rows.csv'))).toBe(
      'rows.csv: line 1: two columns are called "service"',
    );
    expect(dataError(() => parseScenarioData('- {service: "1", account: [a, b]}\n', 'rows.yaml'))).toBe(
      'rows.yaml: line 1 (row 1), column "account": a value is text, a number or true/false, not a list or map',
    );
    expect(dataError(() => parseScenarioData('- service: "1"\n- service:\n', 'rows.yaml'))).toMatch(
      /^rows\.yaml: line 2 \(row 2\), column "service": .* not empty$/,
    );
    expect(dataError(() => parseScenarioData('{"service": 1}', 'rows.json'))).toMatch(
      /^rows\.json: the file is a list of rows/,
    );
    expect(dataError(() => parseScenarioData('[{"service": 1,}', 'rows.json'))).toMatch(
      /^rows\.json: line 1: not valid JSON or YAML/,
    );
    expect(dataError(() => parseScenarioData('service\n', 'rows.csv'))).toBe(
      'rows.csv: no rows: a data-driven case would run no times',
    );
    expect(dataError(() => parseScenarioData('a', 'rows.txt'))).toBe(
      'rows.txt: give a data file ending in .csv, .json, .yaml or .yml',
    );
  });

  it('a column a case uses is in every row, or the file is refused before anything is sent', () => {
    const complete = parseScenarioData('service,account,amount\n502,7,1\n', 'rows.csv');
    expect(() => checkDataFor([rowsCase], complete)).not.toThrow();
    const noColumn = parseScenarioData('service,account\n502,7\n', 'rows.csv');
    expect(dataError(() => checkDataFor([rowsCase], noColumn))).toBe(
      'rows.csv: line 1: no column "amount", which case "top-up" of suite.yaml uses as ${row.amount} (columns: service, account)',
    );
    const rowWithout = parseScenarioData(
      '[{"service": 1, "account": 2, "amount": 3}, {"service": 1, "account": 2}]',
      'rows.json',
    );
    expect(dataError(() => checkDataFor([rowsCase], rowWithout))).toMatch(
      /^rows\.json: line 1 \(row 2\): no column "amount"/,
    );
    expect(dataError(() => checkDataFor([rowsCase], undefined))).toBe(
      'suite.yaml: case "top-up" uses ${row.service}: give its rows with --data <rows.csv|.json|.yaml>',
    );
  });

  it('a case knows the columns it uses; ${row} alone, or a step called row, is refused', () => {
    expect(rowsCase.cases.map((c) => c.rowColumns)).toEqual([['service', 'account', 'amount'], []]);
    expect(() =>
      parseScenario('cases: [{name: a, steps: [{check: {service: "${row}", account: a}}]}]', 's.yaml'),
    ).toThrow(ScenarioFileError);
    expect(() =>
      parseScenario('cases: [{name: a, steps: [{check: {service: "1", account: a}, id: row}]}]', 's.yaml'),
    ).toThrow(/id must not be/);
  });

  it('an iteration is named with its row number and the values of the columns it uses', () => {
    const row = { number: 3, line: 4, values: { service: '502', account: '7', note: 'unused' } };
    expect(iterationName('case', row, ['service', 'account'])).toBe('case [row 3: 502/7]');
    expect(iterationName('case', { ...row, values: { service: 'x'.repeat(30) } }, ['service'])).toBe(
      `case [row 3: ${'x'.repeat(23)}…]`,
    );
    expect(iterationName('case', row, [])).toBe('case [row 3]');
  });
});
