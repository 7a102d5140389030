import { describe, expect, it } from 'vitest';
import { type CodeTable, classifyCode, emptyCodeTable } from '../../src/protocol/codes.js';
import { parseEnvelope } from '../../src/protocol/envelope.js';
import { unknownView, viewOfAnswer } from '../../src/protocol/transaction-view.js';
import { classifyHint } from '../../src/settings/code-lists.js';
import { paymentAnswer } from '../helpers/payment-answer.js';

describe('the transaction view', async () => {
  const codes: CodeTable = { pending: new Set(['11', '12']), notFound: new Set(['25']), failed: new Set(['21', '-1']) };
  const answerWith = (status: string) =>
    parseEnvelope(
      `{"TransactinID": 5, "RequestID": 9007199254740993, "ResponseType": "Status", "ResponseStatus": ${status}, "Message": "m"}`,
    );

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
    const view = viewOfAnswer(
      await answerWith('10'),
      { transactionId: '5', service: '201', account: 'a', amount: '150.50', currency: 'KZT' },
      codes,
    );
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
    expect(
      unknownView(
        { transactionId: '7', service: '101', account: 'x', amount: '499.00', currency: 'KZT' },
        'Payment',
        'lost',
      ),
    ).toEqual({
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
