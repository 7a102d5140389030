import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/protocol/envelope.js';
import { MalformedAnswerError } from '../../src/protocol/problems.js';
import { parseVoucherList } from '../../src/protocol/vouchers.js';
import { thrown } from '../helpers/thrown.js';

const extra = (fieldName: string | undefined, value: unknown) => ({
  ...(fieldName === undefined ? {} : { FieldName: fieldName }),
  FieldValue: typeof value === 'string' ? value : JSON.stringify(value),
});

describe('parseVoucherList (spec 2.4)', () => {
  it('parses FieldValue, a JSON document in a string, keeping amounts and ids exact', () => {
    const vouchers = parseVoucherList([
      extra('Invoice-1', { InvoiceId: 7010, OrderAmount: '10.630', InvoiceName: 'Gift card 10 EUR' }),
      extra('Invoice-2', '{"InvoiceId": 7025, "OrderAmount": 26.575, "InvoiceName": "Gift card 25 EUR"}'),
      extra('Invoice-3', '{"InvoiceId": "9007199254740993", "OrderAmount": "2497.00", "InvoiceName": "Большой пакет"}'),
    ]);
    expect(vouchers).toEqual([
      { position: 1, fieldName: 'Invoice-1', invoiceId: '7010', orderAmount: '10.630', name: 'Gift card 10 EUR' },
      { position: 2, fieldName: 'Invoice-2', invoiceId: '7025', orderAmount: '26.575', name: 'Gift card 25 EUR' },
      {
        position: 3,
        fieldName: 'Invoice-3',
        invoiceId: '9007199254740993',
        orderAmount: '2497.00',
        name: 'Большой пакет',
      },
    ]);
  });

  it('reads the position from Invoice-<n>, falling back to the index', () => {
    const vouchers = parseVoucherList([
      extra('Invoice-7', { InvoiceId: 1, OrderAmount: '1.00', InvoiceName: 'a' }),
      extra(undefined, { InvoiceId: 2, OrderAmount: '2.00', InvoiceName: 'b' }),
      extra('Something', { InvoiceId: 3, OrderAmount: '3.00' }),
    ]);
    expect(vouchers?.map((v) => [v.position, v.fieldName, v.name])).toEqual([
      [7, 'Invoice-7', 'a'],
      [2, 'Invoice-2', 'b'],
      [3, 'Something', ''],
    ]);
  });

  it('reads an item seen before the same way: its position and name go with the item, and a bad one fails every time', () => {
    const item = { InvoiceId: 4, OrderAmount: '4.00', InvoiceName: 'same' };
    const first = parseVoucherList([extra(undefined, item), extra('Invoice-9', item)]);
    const again = parseVoucherList([
      extra(undefined, { InvoiceId: 0, OrderAmount: '0.00' }),
      extra(undefined, item),
      extra('Invoice-9', item),
    ]);
    expect(first?.map((v) => [v.position, v.fieldName])).toEqual([
      [1, 'Invoice-1'],
      [9, 'Invoice-9'],
    ]);
    expect(again?.slice(1).map((v) => [v.position, v.fieldName, v.invoiceId])).toEqual([
      [2, 'Invoice-2', '4'],
      [9, 'Invoice-9', '4'],
    ]);
    for (let round = 0; round < 2; round++)
      expect(thrown(() => parseVoucherList([extra('Invoice-1', '{"InvoiceId": 1}')]))).toBeInstanceOf(
        MalformedAnswerError,
      );
  });

  it.each([
    ['not json at all', /Invoice-1: FieldValue is not a JSON document/],
    ['{"InvoiceId": 1}', /OrderAmount/],
    ['{"OrderAmount": "1.00"}', /InvoiceId/],
    ['{"InvoiceId": "x1", "OrderAmount": "1.00"}', /InvoiceId/],
    ['{"InvoiceId": 1, "OrderAmount": "1,00"}', /OrderAmount/],
    ['{"InvoiceId": 1, "OrderAmount": "-1.00"}', /OrderAmount/],
  ])('a bad FieldValue %j is a MalformedAnswerError', (fieldValue, why) => {
    const error = thrown(() => parseVoucherList([extra('Invoice-1', fieldValue)]));
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error.message).toMatch(why);
  });

  it('vouchers survive the whole envelope parse', async () => {
    const body = JSON.stringify({
      TransactinID: 1,
      ResponseStatus: 10,
      TransactionContent: {
        Extras: [extra('Invoice-1', { InvoiceId: 7010, OrderAmount: '10.630', InvoiceName: 'x' })],
      },
    });
    expect(parseVoucherList((await parseEnvelope(body)).extras)?.[0]?.orderAmount).toBe('10.630');
  });

  // An empty list is a dynamic service with nothing for this account now; no list at all is a static service.
  it.each([
    ['"Extras": []', []],
    ['"Extras": null', null],
    ['"Service": "201"', null],
  ])('an AccountCheck whose content holds %s has the voucher list %j', async (content, expected) => {
    const answer = await parseEnvelope(`{"TransactinID": 1, "ResponseStatus": 10, "TransactionContent": {${content}}}`);
    expect(parseVoucherList(answer.extras)).toEqual(expected);
  });

  it('an answer with no TransactionContent (a refusal) has no voucher list at all', async () => {
    for (const body of [
      '{"ResponseStatus": 20, "Message": "no"}',
      '{"ResponseStatus": 20, "TransactionContent": null}',
    ]) {
      expect(parseVoucherList((await parseEnvelope(body)).extras)).toBeNull();
    }
  });

  it('an empty Extras list stays a list; absent Extras are no list', async () => {
    expect((await parseEnvelope('{"ResponseStatus": "10", "TransactionContent": {"Extras": []}}')).extras).toEqual([]);
    expect((await parseEnvelope('{"ResponseStatus": "10", "TransactionContent": {}}')).extras).toBeNull();
  });

  it.each([
    ['{"InvoiceId": 1, "OrderAmount": "1,00"}', 'voucher Invoice-1: OrderAmount: expected a plain decimal, got "1,00"'],
    [
      '{"InvoiceId": 1.5, "OrderAmount": "1.00"}',
      'voucher Invoice-1: InvoiceId: expected an integer, got the number 1.5',
    ],
    ['{"OrderAmount": "1.00"}', 'voucher Invoice-1: InvoiceId: expected an integer, got nothing'],
    [
      '{"InvoiceId": 1, "OrderAmount": "1.00", "InvoiceName": true}',
      'voucher Invoice-1: InvoiceName: expected a string or a number, got a boolean',
    ],
    ['[1]', 'voucher Invoice-1: FieldValue: expected an object, got a list'],
  ])('a refused FieldValue %j names the field and what was expected', (fieldValue, message) => {
    expect(thrown(() => parseVoucherList([extra('Invoice-1', fieldValue)])).message).toBe(message);
  });
});
