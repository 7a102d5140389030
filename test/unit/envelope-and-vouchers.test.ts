import { describe, expect, it } from 'vitest';
import { type CodeTable, classifyCode, emptyCodeTable } from '../../src/protocol/codes.js';
import { parseEnvelope } from '../../src/protocol/envelope.js';
import { MalformedAnswerError } from '../../src/protocol/problems.js';
import { unknownView, viewOfAnswer } from '../../src/protocol/transaction-view.js';
import { parseVoucherList } from '../../src/protocol/vouchers.js';
import { classifyHint } from '../../src/settings/code-lists.js';
import { rejection, thrown } from '../helpers/thrown.js';

const paymentAnswer = `{
  "TransactinID": 1795289214527958198,
  "RequestID": 9007199254740993,
  "ResponseType": "Payment",
  "ResponseStatus": 10,
  "Message": "Успех",
  "TransactionContent": {
    "Service": "102",
    "account": "player-42",
    "Amount": 10.630,
    "Currency": "USD",
    "ExchangeRate": 0.921,
    "ServiceCurrency": "EUR"
  }
}`;

describe('parseEnvelope (spec 2.2, 2.3)', () => {
  it('keeps Longs and amounts exactly as written', async () => {
    const answer = await parseEnvelope(paymentAnswer);
    expect(answer).toMatchObject({
      transactionId: '1795289214527958198',
      requestId: '9007199254740993',
      type: 'Payment',
      status: '10',
      message: 'Успех',
      service: '102',
      account: 'player-42',
      amount: '10.630',
      currency: 'USD',
      exchangeRate: '0.921',
      serviceCurrency: 'EUR',
      // A Payment answer has no voucher list at all.
      extras: null,
    });
  });

  it('reads TransactinID (the spec spelling) and TransactionID alike', async () => {
    expect((await parseEnvelope('{"TransactinID": 42, "ResponseStatus": 10}')).transactionId).toBe('42');
    expect((await parseEnvelope('{"TransactionID": "43", "ResponseStatus": 10}')).transactionId).toBe('43');
    expect((await parseEnvelope('{"ResponseStatus": 10}')).transactionId).toBeUndefined();
  });

  it('reads the lower-case account of answers, and Account too', async () => {
    expect((await parseEnvelope('{"ResponseStatus": 10, "TransactionContent": {"account": "a-1"}}')).account).toBe('a-1');
    expect((await parseEnvelope('{"ResponseStatus": 10, "TransactionContent": {"Account": "A-2"}}')).account).toBe('A-2');
  });

  it('takes ExchangeRate and ServiceCurrency from the envelope when the content lacks them (spec 4.4)', async () => {
    const answer = await parseEnvelope('{"ResponseStatus": "10", "ExchangeRate": 1.000, "ServiceCurrency": "KZT", "TransactionContent": null}');
    expect(answer.exchangeRate).toBe('1.000');
    expect(answer.serviceCurrency).toBe('KZT');
    expect(answer.status).toBe('10');
  });

  it('an answer without ResponseStatus is not the envelope', async () => {
    const error = await rejection(() => parseEnvelope('{"TransactinID": 1, "Message": "ok"}'));
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error.message).toMatch(/ResponseStatus/);
  });

  it.each([
    ['<html><body>502 Bad Gateway</body></html>', /not JSON/],
    ['', /not JSON/],
    ['{"ResponseStatus": 10', /not JSON/],
    ['null', /not the gateway envelope/],
    ['[1, 2]', /not the gateway envelope/],
    ['{"ResponseStatus": "ok"}', /ResponseStatus/],
    ['{"ResponseStatus": 10.5}', /ResponseStatus/],
    ['{"ResponseStatus": 10, "TransactionContent": {"Extras": "nope"}}', /Extras/],
  ])('%j is a MalformedAnswerError', async (body, why) => {
    const error = await rejection(() => parseEnvelope(body));
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error.message).toMatch(why);
  });
});

describe('what the envelope reader refuses, it explains', () => {
  it.each([
    ['{"ResponseStatus":"x"}', '(ResponseStatus: expected an integer, got "x")'],
    ['{"ResponseStatus":true}', '(ResponseStatus: expected an integer, got a boolean)'],
    ['{"Message":"ok"}', '(ResponseStatus: expected an integer, got nothing)'],
    ['{"ResponseStatus":10,"TransactionContent":[]}', '(TransactionContent: expected an object, got a list)'],
    ['{"ResponseStatus":10,"TransactionContent":"x"}', '(TransactionContent: expected an object, got "x")'],
    ['{"ResponseStatus":10,"Message":{"ru":"x"}}', '(Message: expected a string or a number, got an object)'],
    ['{"ResponseStatus":10,"TransactionContent":{"Amount":false}}', '(TransactionContent.Amount: expected a string or a number, got a boolean)'],
    ['{"ResponseStatus":10,"TransactionContent":{"Extras":{}}}', '(TransactionContent.Extras: expected a list of Extras items, got an object)'],
    [
      '{"ResponseStatus":10,"TransactionContent":{"Extras":[{"FieldValue":"{}"},{"FieldValue":5}]}}',
      '(TransactionContent.Extras.1.FieldValue: expected a string holding a JSON document, got the number 5)',
    ],
    [
      '{"ResponseStatus":10,"TransactionContent":{"Extras":[{"FieldName":[],"FieldValue":"{}"}]}}',
      '(TransactionContent.Extras.0.FieldName: expected a string or a number, got a list)',
    ],
    ['[1]', '(the body: expected an object, got a list)'],
  ])('%j: the answer is not the gateway envelope %s', async (body, where) => {
    await expect(parseEnvelope(body)).rejects.toThrow(`the answer is not the gateway envelope ${where}`);
  });

  it('takes a number as TransactionContent as content without fields, and unknown keys as they come', async () => {
    await expect(parseEnvelope('{"ResponseStatus":10,"TransactionContent":5}')).resolves.toMatchObject({ status: '10', extras: null, service: undefined });
    const answer = await parseEnvelope('{"ResponseStatus":10,"Other":{"x":true},"TransactionContent":{"Extra":[1],"Extras":[{"FieldValue":"{}","Note":1}]}}');
    expect(answer.extras).toStrictEqual([{ FieldName: undefined, FieldValue: '{}' }]);
    expect(answer.raw).toMatchObject({ Other: { x: true } });
  });

  it('reads a typical answer exactly, Longs and amounts as written', async () => {
    const answer = await parseEnvelope(
      '{"TransactinID":1795289214527958198,"RequestID":9007199254740993,"ResponseType":"Status","ResponseStatus":10,"Message":"Успех",' +
        '"TransactionContent":{"Service":"102","account":"player-42","Amount":10.630,"Currency":"USD","ExchangeRate":0.921,"ServiceCurrency":"EUR",' +
        '"Extras":[{"FieldName":"Invoice-1","FieldValue":"{\\"InvoiceId\\":7010}","Note":1}]}}',
    );
    expect(answer).toMatchObject({
      transactionId: '1795289214527958198',
      requestId: '9007199254740993',
      type: 'Status',
      status: '10',
      message: 'Успех',
      service: '102',
      account: 'player-42',
      amount: '10.630',
      currency: 'USD',
      exchangeRate: '0.921',
      serviceCurrency: 'EUR',
    });
    expect(answer.extras).toStrictEqual([expect.objectContaining({ FieldName: 'Invoice-1', FieldValue: '{"InvoiceId":7010}' })]);
  });
});

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
      { position: 3, fieldName: 'Invoice-3', invoiceId: '9007199254740993', orderAmount: '2497.00', name: 'Большой пакет' },
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
    const again = parseVoucherList([extra(undefined, { InvoiceId: 0, OrderAmount: '0.00' }), extra(undefined, item), extra('Invoice-9', item)]);
    expect(first?.map((v) => [v.position, v.fieldName])).toEqual([
      [1, 'Invoice-1'],
      [9, 'Invoice-9'],
    ]);
    expect(again?.slice(1).map((v) => [v.position, v.fieldName, v.invoiceId])).toEqual([
      [2, 'Invoice-2', '4'],
      [9, 'Invoice-9', '4'],
    ]);
    for (let round = 0; round < 2; round++) expect(thrown(() => parseVoucherList([extra('Invoice-1', '{"InvoiceId": 1}')]))).toBeInstanceOf(MalformedAnswerError);
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
      TransactionContent: { Extras: [extra('Invoice-1', { InvoiceId: 7010, OrderAmount: '10.630', InvoiceName: 'x' })] },
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
    for (const body of ['{"ResponseStatus": 20, "Message": "no"}', '{"ResponseStatus": 20, "TransactionContent": null}']) {
      expect(parseVoucherList((await parseEnvelope(body)).extras)).toBeNull();
    }
  });

  it('an empty Extras list stays a list; absent Extras are no list', async () => {
    expect((await parseEnvelope('{"ResponseStatus": "10", "TransactionContent": {"Extras": []}}')).extras).toEqual([]);
    expect((await parseEnvelope('{"ResponseStatus": "10", "TransactionContent": {}}')).extras).toBeNull();
  });

  it.each([
    ['{"InvoiceId": 1, "OrderAmount": "1,00"}', 'voucher Invoice-1: OrderAmount: expected a plain decimal, got "1,00"'],
    ['{"InvoiceId": 1.5, "OrderAmount": "1.00"}', 'voucher Invoice-1: InvoiceId: expected an integer, got the number 1.5'],
    ['{"OrderAmount": "1.00"}', 'voucher Invoice-1: InvoiceId: expected an integer, got nothing'],
    ['{"InvoiceId": 1, "OrderAmount": "1.00", "InvoiceName": true}', 'voucher Invoice-1: InvoiceName: expected a string or a number, got a boolean'],
    ['[1]', 'voucher Invoice-1: FieldValue: expected an object, got a list'],
  ])('a refused FieldValue %j names the field and what was expected', (fieldValue, message) => {
    expect(thrown(() => parseVoucherList([extra('Invoice-1', fieldValue)])).message).toBe(message);
  });
});

describe('the transaction view', async () => {
  const codes: CodeTable = { pending: new Set(['11', '12']), notFound: new Set(['25']), failed: new Set(['21', '-1']) };
  const answerWith = (status: string) => parseEnvelope(`{"TransactinID": 5, "RequestID": 9007199254740993, "ResponseType": "Status", "ResponseStatus": ${status}, "Message": "m"}`);

  it.each([
    ['10', 'success'],
    ['11', 'pending'],
    ['12', 'pending'],
    ['21', 'failed'],
    ['-1', 'failed'],
    // Not found, or a code the table does not hold: the money may have moved.
    ['25', 'unknown'],
    ['0', 'unknown'],
    ['33', 'unknown'],
  ])('ResponseStatus %s is %s', async (status, state) => {
    expect(viewOfAnswer(await answerWith(status), { transactionId: '5' }, codes).state).toBe(state);
  });

  it('with an empty table (a gateway nobody described yet) only 10 is final', async () => {
    for (const status of ['11', '20', '25', '99']) {
      expect(viewOfAnswer(await answerWith(status), { transactionId: '5' }, emptyCodeTable).state).toBe('unknown');
    }
    expect(viewOfAnswer(await answerWith('10'), { transactionId: '5' }, emptyCodeTable).state).toBe('success');
  });

  it('classifyCode: 10 is success whatever the lists say; each list its own class', () => {
    expect(classifyCode('10', { ...codes, failed: new Set(['10']) })).toBe('success');
    expect(classifyCode('11', codes)).toBe('pending');
    expect(classifyCode('21', codes)).toBe('failed');
    expect(classifyCode('25', codes)).toBe('notFound');
    expect(classifyCode('33', codes)).toBe('unclassified');
    expect(classifyHint('33')).toBe(
      "classify ResponseStatus 33 once the gateway's operator says what it means: --failed-codes 33 (a final refusal), " +
        '--pending-codes 33 (in progress), --not-found-codes 33 (no such transaction); profile keys failedCodes, pendingCodes, notFoundCodes',
    );
  });

  it('fills what the answer left out from what was sent, else null', async () => {
    const view = viewOfAnswer(await answerWith('10'), { transactionId: '5', service: '201', account: 'a', amount: '150.50', currency: 'KZT' }, codes);
    expect(view).toEqual({
      transactionId: '5',
      requestId: '9007199254740993',
      type: 'Status',
      status: '10',
      state: 'success',
      message: 'm',
      service: '201',
      account: 'a',
      amount: '150.50',
      currency: 'KZT',
      exchangeRate: null,
      serviceCurrency: null,
    });
  });

  it('prefers the answer over what was sent', async () => {
    const answer = await parseEnvelope(paymentAnswer);
    const view = viewOfAnswer(answer, { transactionId: '1795289214527958198', amount: '1', service: '9' }, codes);
    expect(view).toMatchObject({ amount: '10.630', service: '102', exchangeRate: '0.921', serviceCurrency: 'EUR' });
  });

  it('unknownView knows only what was sent', () => {
    expect(unknownView({ transactionId: '7', service: '101', account: 'x', amount: '499.00', currency: 'KZT' }, 'Payment', 'lost')).toEqual({
      transactionId: '7',
      requestId: null,
      type: 'Payment',
      status: null,
      state: 'unknown',
      message: 'lost',
      service: '101',
      account: 'x',
      amount: '499.00',
      currency: 'KZT',
      exchangeRate: null,
      serviceCurrency: null,
    });
  });
});
