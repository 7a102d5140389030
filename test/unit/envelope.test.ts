import { describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/protocol/envelope.js';
import { MalformedAnswerError } from '../../src/protocol/problems.js';
import { paymentAnswer } from '../helpers/payment-answer.js';
import { rejection } from '../helpers/thrown.js';

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
    expect((await parseEnvelope('{"ResponseStatus": 10, "TransactionContent": {"account": "a-1"}}')).account).toBe(
      'a-1',
    );
    expect((await parseEnvelope('{"ResponseStatus": 10, "TransactionContent": {"Account": "A-2"}}')).account).toBe(
      'A-2',
    );
  });

  it('takes ExchangeRate and ServiceCurrency from the envelope when the content lacks them (spec 4.4)', async () => {
    const answer = await parseEnvelope(
      '{"ResponseStatus": "10", "ExchangeRate": 1.000, "ServiceCurrency": "KZT", "TransactionContent": null}',
    );
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
    [
      '{"ResponseStatus":10,"TransactionContent":{"Amount":false}}',
      '(TransactionContent.Amount: expected a string or a number, got a boolean)',
    ],
    [
      '{"ResponseStatus":10,"TransactionContent":{"Extras":{}}}',
      '(TransactionContent.Extras: expected a list of Extras items, got an object)',
    ],
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
    await expect(parseEnvelope('{"ResponseStatus":10,"TransactionContent":5}')).resolves.toMatchObject({
      status: '10',
      extras: null,
      service: undefined,
    });
    const answer = await parseEnvelope(
      '{"ResponseStatus":10,"Other":{"x":true},"TransactionContent":{"Extra":[1],"Extras":[{"FieldValue":"{}","Note":1}]}}',
    );
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
    expect(answer.extras).toStrictEqual([
      expect.objectContaining({ FieldName: 'Invoice-1', FieldValue: '{"InvoiceId":7010}' }),
    ]);
  });
});
