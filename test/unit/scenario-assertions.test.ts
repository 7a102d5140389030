import { describe, expect, it } from 'vitest';
import { parseLosslessJson } from '../../src/protocol/lossless.js';
import { type AssertionResult, evaluateExpectation, matcherSchema } from '../../src/scenario/assertions.js';
import { parsePath } from '../../src/scenario/path.js';

const record = {
  transactionId: '42',
  requestId: '9007199254740993',
  status: '10',
  state: 'success',
  message: 'Ошибка: Amount 499.001 does not equal OrderAmount 499.00',
  serviceCurrency: null,
  vouchers: [{ invoiceId: '5001' }, { invoiceId: '5002' }],
  envelope: parseLosslessJson(
    '{"TransactinID":42,"RequestID":9007199254740993,"TransactionContent":{"Amount":10.630,"Extras":[' +
      '{"FieldName":"Invoice-1","FieldValue":"{\\"InvoiceId\\":5001}"},{"FieldName":"Invoice-3","FieldValue":"{\\"InvoiceId\\":\\"5002\\"}"}]}}',
  ),
};
const first = { requestId: '9007199254740993', status: '10' };
const context = {
  scope: new Map<string, unknown>([
    ['var', { code: '10' }],
    ['self', record],
  ]),
  recordOf: (name: string) => (name === 'first' ? first : undefined),
};

function check(path: string, matcher: unknown): AssertionResult[] {
  return evaluateExpectation(
    { path, segments: parsePath(path), matcher: matcherSchema.parse(matcher) },
    record,
    context,
  );
}
const passes = (path: string, matcher: unknown) =>
  check(path, matcher).every((r) => r.ok) && check(path, matcher).length > 0;

describe('assertions', () => {
  it('equals compares text, so 10 is "10" and a gateway 10.630 stays 10.630', () => {
    expect(passes('status', '10')).toBe(true);
    expect(passes('envelope.RequestID', '9007199254740993')).toBe(true);
    expect(passes('envelope.TransactionContent.Amount', '10.630')).toBe(true);
    expect(passes('envelope.TransactionContent.Amount', '10.63')).toBe(false);
    expect(passes('status', '${var.code}')).toBe(true);
    expect(passes('serviceCurrency', null)).toBe(true);
    expect(passes('vouchers[0]', { equals: { invoiceId: '5001' } })).toBe(true);
  });

  it('names the path, the expected and the actual value when it fails', () => {
    expect(check('state', 'failed')).toEqual([
      {
        path: 'state',
        check: 'equals',
        ok: false,
        expected: '"failed"',
        actual: '"success"',
        wanted: { check: 'equals', value: '"failed"' },
        found: { value: '"success"' },
      },
    ]);
    expect(check('envelope.TransactinID', { equals: '43' })).toMatchObject([
      { path: 'envelope.TransactinID', check: 'equals', ok: false, expected: '"43"', actual: '42' },
    ]);
    expect(check('envelope.Nope', 'x')[0]).toMatchObject({ ok: false, path: 'envelope.Nope', actual: 'missing' });
  });

  it('not-equals, one-of, matches, contains and type', () => {
    expect(passes('state', { 'not-equals': 'failed' })).toBe(true);
    expect(passes('status', { 'not-equals': '10' })).toBe(false);
    expect(passes('state', { 'one-of': ['pending', 'success'] })).toBe(true);
    expect(check('state', { 'one-of': ['pending', 'failed'] })[0]!.expected).toBe('one of "pending", "failed"');
    expect(passes('message', { matches: 'OrderAmount \\d+\\.\\d{2}$' })).toBe(true);
    expect(passes('message', { matches: '^Успех' })).toBe(false);
    expect(passes('message', { contains: 'does not equal' })).toBe(true);
    expect(passes('message', { contains: 'Успех' })).toBe(false);
    expect(passes('vouchers', { contains: { invoiceId: '5002' } })).toBe(true);
    expect(check('vouchers', { contains: { invoiceId: '5003' } })[0]).toMatchObject({
      ok: false,
      expected: 'a list holding {"invoiceId":"5003"}',
    });
    expect(passes('envelope.RequestID', { type: 'number' })).toBe(true);
    expect(check('requestId', { type: 'number' })[0]).toMatchObject({
      ok: false,
      expected: 'a number',
      actual: 'a string: "9007199254740993"',
    });
  });

  it('exists: present and not null; a missing value fails every other check', () => {
    expect(passes('requestId', { exists: true })).toBe(true);
    expect(passes('serviceCurrency', { exists: true })).toBe(false);
    expect(passes('envelope.TransactionID', { exists: false })).toBe(true);
    expect(passes('envelope.TransactinID', { exists: false })).toBe(false);
    expect(passes('envelope.TransactionID', { 'not-equals': 'x' })).toBe(false);
    expect(check('envelope.TransactionID', { exists: true })[0]).toMatchObject({
      expected: 'present',
      actual: 'missing',
    });
  });

  it('same-as compares with the same path in an earlier step', () => {
    expect(passes('requestId', { 'same-as': 'first' })).toBe(true);
    expect(passes('transactionId', { 'same-as': 'first' })).toBe(false);
    expect(check('status', { 'same-as': 'first' })[0]!.expected).toBe('"10" (the status of step first)');
  });

  it('decimal-equals compares numbers as decimals (1500 is 1500.00), from the gateway or as text', () => {
    expect(passes('envelope.TransactionContent.Amount', { 'decimal-equals': '10.63' })).toBe(true);
    expect(passes('envelope.TransactionContent.Amount', { 'decimal-equals': '10.630' })).toBe(true);
    expect(passes('envelope.TransactionContent.Amount', { 'decimal-equals': '10.603' })).toBe(false);
    expect(passes('status', { 'decimal-equals': '10.0' })).toBe(true);
    expect(passes('status', { 'decimal-equals': '${var.code}' })).toBe(true);
    expect(check('envelope.TransactionContent.Amount', { 'decimal-equals': '106.3' })[0]).toMatchObject({
      path: 'envelope.TransactionContent.Amount',
      check: 'decimal-equals',
      ok: false,
      expected: 'the decimal 106.3',
      actual: '10.630',
    });
    // Not a number: a missing value, a list, an object, text that is not a decimal.
    expect(check('amount', { 'decimal-equals': '0' })[0]).toMatchObject({ ok: false, actual: 'missing' });
    expect(passes('vouchers', { 'decimal-equals': '0' })).toBe(false);
    expect(passes('vouchers[0]', { 'decimal-equals': '5001' })).toBe(false);
    expect(passes('state', { 'decimal-equals': '0' })).toBe(false);
    expect(passes('serviceCurrency', { 'decimal-equals': '0' })).toBe(false);
  });

  it('[*] checks every element, with ${each.position} for the one at hand, and names the one that fails', () => {
    const results = check('envelope.TransactionContent.Extras[*].FieldName', 'Invoice-${each.position}');
    expect(results.map((r) => [r.path, r.ok, r.expected, r.actual])).toEqual([
      ['envelope.TransactionContent.Extras[0].FieldName', true, '"Invoice-1"', '"Invoice-1"'],
      ['envelope.TransactionContent.Extras[1].FieldName', false, '"Invoice-2"', '"Invoice-3"'],
    ]);
    const types = check('envelope.TransactionContent.Extras[*].FieldValue@json.InvoiceId', { type: 'number' });
    expect(types.map((r) => r.ok)).toEqual([true, false]);
    expect(check('vouchers[*].invoiceId', { matches: '^50' }).every((r) => r.ok)).toBe(true);
  });

  it('a placeholder that cannot be filled fails the check instead of passing it', () => {
    expect(check('state', '${self.nothing}')[0]).toMatchObject({
      ok: false,
      expected: expect.stringContaining('self.nothing is missing'),
    });
  });
});
