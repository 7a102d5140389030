import { describe, expect, it } from 'vitest';
import { amountWarnings } from '../../src/protocol/amount-check.js';
import { parseEnvelope } from '../../src/protocol/envelope.js';
import { sandboxCodeTable } from '../../src/protocol/sandbox-codes.js';
import { viewOfAnswer } from '../../src/protocol/transaction-view.js';
import { plainStyle } from '../../src/render/style.js';
import { renderReceipt, transactionJson } from '../../src/render/transaction.js';

/** A gateway answer as text, so its Amount keeps the digits it was written with. */
function answerOf(fields: { type?: string | null; status?: number; amount?: string | null }) {
  const type = fields.type === null ? '' : `"ResponseType": ${JSON.stringify(fields.type ?? 'Payment')},`;
  const amount = fields.amount === null ? '' : `"Amount": ${fields.amount ?? '2497.00'},`;
  return parseEnvelope(
    `{"TransactinID": 7, "RequestID": 9007199254740993, ${type} "ResponseStatus": ${fields.status ?? 10}, "Message": "Успех",` +
      ` "TransactionContent": {"Service": "101", "account": "a", ${amount} "Currency": "KZT"}}`,
  );
}

describe('amountWarnings: a reported Amount that is not the decimal sent', () => {
  it.each([
    ['1500', '1500.00'],
    ['1500.00', '1500.00'],
    ['"1500.0"', '1500.00'],
    ['1.5e3', '1500.00'],
    ['10.630', '10.63'],
  ])('none when the gateway reports %s for %s sent', async (reported, sent) => {
    expect(amountWarnings(await answerOf({ amount: reported }), { amount: sent })).toEqual([]);
  });

  it.each([
    ['24970', '2497.00'],
    ['"24970"', '2497.00'],
    ['2497.01', '2497.00'],
    ['"2 497,00"', '2497.00'],
    ['9007199254740993', '9007199254740992'],
  ])('one when the gateway reports %s for %s sent, naming both exactly', async (reported, sent) => {
    const warnings = amountWarnings(await answerOf({ amount: reported }), { amount: sent });
    expect(warnings).toEqual([
      `the gateway reports Amount ${reported.replace(/"/g, '')}, not the ${sent} that was sent: ask the gateway which amount was charged`,
    ]);
  });

  it('only for a success answer to a Payment or Status whose sent amount is known', async () => {
    const sent = { amount: '2497.00' };
    expect(amountWarnings(await answerOf({ type: 'Status', amount: '24970' }), sent)).toHaveLength(1);
    // A Payment answer without ResponseType is still a payment.
    expect(amountWarnings(await answerOf({ type: null, amount: '24970' }), sent)).toHaveLength(1);
    // An AccountCheck moves no money; a refusal or a pending answer is not a receipt of an amount.
    expect(amountWarnings(await answerOf({ type: 'AccountCheck', amount: '24970' }), sent)).toEqual([]);
    expect(amountWarnings(await answerOf({ status: 23, amount: '24970' }), sent)).toEqual([]);
    expect(amountWarnings(await answerOf({ status: 11, amount: '24970' }), sent)).toEqual([]);
    // Nothing to compare: a Status look-up knows no amount; an answer may report none.
    expect(amountWarnings(await answerOf({ amount: '24970' }), {})).toEqual([]);
    expect(amountWarnings(await answerOf({ amount: null }), sent)).toEqual([]);
  });
});

describe('warnings on the transaction view', () => {
  const codes = sandboxCodeTable;

  it("are on the view, its JSON and its receipt when there are some; the state stays the gateway's", async () => {
    const view = viewOfAnswer(await answerOf({ amount: '24970' }), { transactionId: '7', amount: '2497.00' }, codes);
    expect(view.state).toBe('success');
    expect(view.warnings).toEqual([
      'the gateway reports Amount 24970, not the 2497.00 that was sent: ask the gateway which amount was charged',
    ]);
    expect(JSON.parse(transactionJson(view))).toMatchObject({ amount: '24970', warnings: view.warnings });
    expect(renderReceipt(view, plainStyle)).toMatchInlineSnapshot(`
      "✓ Payment succeeded
        TransactionID  7
        RequestID      9007199254740993
        State          success (ResponseStatus 10)
        Service        101
        Account        a
        Amount         24970 KZT
        Message        Успех
        Warning        ! the gateway reports Amount 24970, not the 2497.00 that was sent: ask the gateway which amount was charged"
    `);
  });

  it('are absent, not empty, when there are none', async () => {
    const view = viewOfAnswer(await answerOf({ amount: '1500' }), { transactionId: '7', amount: '1500.00' }, codes);
    expect('warnings' in view).toBe(false);
    expect(transactionJson(view)).not.toContain('warnings');
    expect(renderReceipt(view, plainStyle)).not.toContain('Warning');
  });
});
