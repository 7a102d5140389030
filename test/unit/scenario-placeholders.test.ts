import { describe, expect, it } from 'vitest';
import { parseLosslessJson } from '../../src/protocol/lossless.js';
import { formatPath, PathSyntaxError, parsePath, resolvePath } from '../../src/scenario/path.js';
import { interpolate, PlaceholderError } from '../../src/scenario/placeholders.js';

// A check record as the runner keeps it: the envelope parsed losslessly, as received.
const envelope = parseLosslessJson(
  '{"TransactinID":1795289214527958198,"RequestID":9007199254740993,"ResponseStatus":10,"TransactionContent":{"ExchangeRate":10.630,' +
    '"Extras":[{"FieldName":"Invoice-1","FieldValue":"{\\"InvoiceId\\":7010,\\"OrderAmount\\":\\"10.630\\",\\"InvoiceName\\":\\"Gift\\"}"},' +
    '{"FieldName":"Invoice-2","FieldValue":"not json"}]}}',
);
const check = {
  transactionId: '1795289214527958198',
  vouchers: [
    { position: 1, invoiceId: '5001', orderAmount: '499.00' },
    { position: 2, invoiceId: '5002', orderAmount: '2497.00' },
  ],
  envelope,
  request: { TransactionID: '1795289214527958198', 'Extra[0].Name': 'InvoiceId' },
};
const scope = new Map<string, unknown>([
  ['var', { service: '101', empty: '' }],
  ['check', check],
  ['pay', { transactionId: '42', requestId: null }],
]);

describe('paths', () => {
  it('read fields, indices from 0, [*], @json, quoted names and length, and print back the same', () => {
    for (const path of [
      'state',
      'check.vouchers[1].orderAmount',
      'envelope.TransactionContent.Extras[*].FieldValue@json.InvoiceId',
      'request["Extra[0].Name"]',
      'vouchers.length',
    ]) {
      expect(formatPath(parsePath(path))).toBe(path);
    }
    expect(resolvePath(check, parsePath('vouchers[1].orderAmount').slice(0))).toEqual([
      { segments: parsePath('vouchers[1].orderAmount'), path: 'vouchers[1].orderAmount', value: '2497.00' },
    ]);
    expect(resolvePath(check, parsePath('vouchers.length'))[0]!.value).toBe('2');
    expect(resolvePath(check, parsePath('request["Extra[0].Name"]'))[0]!.value).toBe('InvoiceId');
  });

  it('give every element under [*] with its position, and say why a value is missing', () => {
    const found = resolvePath(check, parsePath('envelope.TransactionContent.Extras[*].FieldValue@json.OrderAmount'));
    expect(found.map((f) => [f.path, f.value, f.absence?.why, f.each?.position])).toEqual([
      ['envelope.TransactionContent.Extras[0].FieldValue@json.OrderAmount', '10.630', undefined, 1],
      ['envelope.TransactionContent.Extras[1].FieldValue', undefined, 'notJson', 2],
    ]);
    expect(resolvePath(check, parsePath('vouchers[5]'))[0]).toMatchObject({
      path: 'vouchers[5]',
      absence: { why: 'listHas', length: 2 },
    });
    expect(resolvePath(check, parsePath('nothing.here'))[0]).toMatchObject({
      path: 'nothing',
      absence: { why: 'missing' },
    });
    expect(resolvePath({ list: [] }, parsePath('list[*]'))[0]).toMatchObject({ absence: { why: 'emptyList' } });
  });

  it('refuse what they cannot read', () => {
    expect(() => parsePath('vouchers[-1]')).toThrow(PathSyntaxError);
    expect(() => parsePath('1abc')).toThrow(/must start with a name/);
    expect(() => parsePath('a..b')).toThrow(/cannot read/);
  });
});

describe('placeholders', () => {
  it('fill in vars and earlier steps, as text inside longer text', () => {
    expect(interpolate('${var.service}', scope)).toBe('101');
    expect(interpolate('${check.vouchers[1].orderAmount}', scope)).toBe('2497.00');
    expect(interpolate('${check.vouchers[0].orderAmount}1', scope)).toBe('499.001');
    expect(interpolate('acct-${var.service}-${pay.transactionId}', scope)).toBe('acct-101-42');
    expect(interpolate('${var.empty}', scope)).toBe('');
  });

  it('keep a gateway number exact, and a whole list or object as it is', () => {
    expect(interpolate('${check.envelope.RequestID}', scope)).toBe('9007199254740993');
    expect(interpolate('${check.envelope.TransactionContent.ExchangeRate}', scope)).toBe('10.630');
    expect(interpolate('${check.vouchers[0]}', scope)).toEqual({
      position: 1,
      invoiceId: '5001',
      orderAmount: '499.00',
    });
    expect(interpolate('${check.vouchers[0].position}', scope)).toBe('1');
  });

  it('reach into lists and maps, and leave everything else alone', () => {
    expect(interpolate({ a: ['${var.service}', true, null], b: { c: 'x${pay.transactionId}' } }, scope)).toEqual({
      a: ['101', true, null],
      b: { c: 'x42' },
    });
  });

  it('read $${ as a literal ${', () => {
    expect(interpolate('cost: $${var.service} is ${var.service}', scope)).toBe('cost: ${var.service} is 101');
  });

  it('say which placeholder could not be filled and why', () => {
    expect(() => interpolate('${check.vouchers[9].orderAmount}', scope)).toThrow(
      new PlaceholderError('${check.vouchers[9].orderAmount}: check.vouchers[9] is missing (the list has 2)'),
    );
    expect(() => interpolate('${var.nope}', scope)).toThrow(/var.nope is missing/);
    expect(() => interpolate('${status.requestId}', scope)).toThrow(/nothing is called "status" here/);
    expect(() => interpolate('${check.vouchers[*].invoiceId}', scope)).toThrow(/\[\*\] has no single value/);
  });
});
