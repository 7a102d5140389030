import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { checkOptions, payOptions, waitOption } from '../../src/options/purchase.js';
import { choiceOption, requiredText, switchOption, textListOption } from '../../src/options/values.js';
import { InvalidFieldError } from '../../src/protocol/problems.js';
import type { Voucher } from '../../src/protocol/vouchers.js';
import { paymentInputOf, voucherOf } from '../../src/purchase/voucher-choice.js';
import { thrown } from '../helpers/thrown.js';

/** The hand-written option parsers (no schema library): each option's rule and message, in the order given. */
describe('option parsers', () => {
  const purchase = { service: '101', account: 'player-42' };

  it('a purchase: --service and --account required and not blank, --currency KZT unless given', () => {
    expect(checkOptions(purchase)).toEqual({ ...purchase, currency: 'KZT', amount: '0' });
    expect(checkOptions({ ...purchase, currency: 'USD', amount: '10.630' })).toEqual({
      ...purchase,
      currency: 'USD',
      amount: '10.630',
    });
    expect(thrown(() => checkOptions({ account: 'a' })).message).toBe('--service is required');
    expect(thrown(() => checkOptions({ service: ' ', account: 'a' })).message).toBe('--service must not be empty');
    expect(thrown(() => checkOptions({ service: '1', account: '' })).message).toBe('--account must not be empty');
    expect(thrown(() => checkOptions({ ...purchase, currency: 'usdollar' })).message).toMatch(
      /^--currency "usdollar" is not a three-letter code/,
    );
  });

  it('pay: an amount is kept byte for byte; a bad one is refused with the amount rule', () => {
    expect(payOptions({ ...purchase, amount: '2497.00' })).toMatchObject({
      amount: '2497.00',
      invoiceId: undefined,
      txnId: undefined,
      dryRun: false,
    });
    const error = thrown(() => payOptions({ ...purchase, amount: '2497,00', invoiceId: '5002' }));
    expect(error).toBeInstanceOf(InvalidFieldError);
    expect(error.message).toContain('use a dot, as in 2497.00');
  });

  it('pay: --invoice-id digits, --txn-id a transaction id, and one of --invoice-id or --amount', () => {
    expect(payOptions({ ...purchase, invoiceId: '9223372036854775807', txnId: '42', dryRun: true })).toMatchObject({
      invoiceId: '9223372036854775807',
      txnId: '42',
      dryRun: true,
    });
    expect(thrown(() => payOptions({ ...purchase, invoiceId: '12a' })).message).toBe(
      '--invoice-id must be digits, as in the check list',
    );
    expect(thrown(() => payOptions({ ...purchase, amount: '1', txnId: '-1' })).message).toMatch(
      /^--txn-id "-1" is not valid: a TransactionID is digits only/,
    );
    expect(thrown(() => payOptions(purchase)).message).toBe(
      'give --invoice-id <id> for a dynamic voucher, or --amount <decimal> for a static one',
    );
    for (const amount of ['0', '0.00'])
      expect(thrown(() => payOptions({ ...purchase, amount })).message).toBe(
        '--amount of zero pays nothing: a static payment is more than zero; nothing was sent',
      );
    // A voucher's OrderAmount is the gateway's to set, zero included.
    expect(payOptions({ ...purchase, amount: '0', invoiceId: '5002' })).toMatchObject({ amount: '0' });
  });

  it('the first bad option in the order the options are listed is the one reported', () => {
    expect(thrown(() => payOptions({ service: '', account: '', amount: 'x' })).message).toBe(
      '--service must not be empty',
    );
  });

  it('small value rules: wait, choices, switches, lists', () => {
    expect(waitOption(undefined)).toBe(0);
    expect(waitOption('120')).toBe(120);
    expect(thrown(() => waitOption('1.5')).message).toBe('--wait takes a whole number of seconds');
    expect(choiceOption('failed', ['success', 'failed'] as const, 'no')).toBe('failed');
    expect(thrown(() => choiceOption('gone', ['success'], '--state must be one of: success'))).toBeInstanceOf(
      UsageError,
    );
    expect(switchOption(undefined, '--bail')).toBe(false);
    expect(textListOption(['a=1', 'b=2'], '--var')).toEqual(['a=1', 'b=2']);
    expect(thrown(() => requiredText(undefined, 'txn-id')).message).toBe('txn-id is required');
  });
});

describe('a chosen purchase', () => {
  const voucher: Voucher = {
    position: 2,
    fieldName: 'Invoice-2',
    invoiceId: '5002',
    orderAmount: '2497.00',
    name: '25 GB',
  };
  const purchase = { service: '101', account: 'player-42', currency: 'KZT' };

  it('a voucher pays with its own InvoiceId and OrderAmount, together (spec 4.2)', () => {
    expect(paymentInputOf(purchase, { kind: 'voucher', voucher }, '7')).toEqual({
      ...purchase,
      transactionId: '7',
      amount: '2497.00',
      invoiceId: '5002',
    });
  });

  it('a static amount pays with no InvoiceId at all (spec 4.3)', () => {
    expect(paymentInputOf(purchase, { kind: 'amount', amount: '1500.00' }, '8')).toEqual({
      ...purchase,
      transactionId: '8',
      amount: '1500.00',
      invoiceId: undefined,
    });
  });

  it('a voucher picked by position is the voucher at that position, InvoiceId included', () => {
    expect(voucherOf([voucher], { ...purchase, invoicePosition: 2 })).toBe(voucher);
    expect(thrown(() => voucherOf([voucher], { ...purchase, invoiceId: '5002', amount: '2497' })).message).toBe(
      '--amount 2497 is not the OrderAmount of invoice 5002, 2497.00; no payment was sent',
    );
  });

  it('one InvoiceId for two vouchers: --amount names one, and without it the choice is refused', () => {
    const cheap = { position: 1, fieldName: 'Invoice-1', invoiceId: '5001', orderAmount: '499.00', name: 'A' };
    const dear = { ...cheap, position: 2, fieldName: 'Invoice-2', orderAmount: '4990.00', name: 'B' };
    expect(voucherOf([cheap, dear], { ...purchase, invoiceId: '5001', amount: '4990.00' })).toBe(dear);
    expect(voucherOf([cheap, dear], { ...purchase, invoiceId: '5001', amount: '499.00' })).toBe(cheap);
    const twice = 'invoice 5001 stands for more than one voucher in the list of service 101 (499.00 A; 4990.00 B)';
    for (const amount of [undefined, '4990'])
      expect(thrown(() => voucherOf([cheap, dear], { ...purchase, invoiceId: '5001', amount })).message).toBe(
        `${twice}; no payment was sent`,
      );
  });
});
