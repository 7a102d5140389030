import { describe, expect, it } from 'vitest';
import { foreignExchangeOf } from '../../src/protocol/exchange-rate.js';

const check = (fields: { exchangeRate?: string; serviceCurrency?: string; currency?: string }) => ({
  exchangeRate: fields.exchangeRate,
  serviceCurrency: fields.serviceCurrency,
  currency: fields.currency,
});

describe('foreignExchangeOf: what a person sees before the yes', () => {
  it.each(['1', '1.0', '1.00', '01', '1e0'])('an ExchangeRate of %j is 1: nothing to show', (rate) => {
    expect(foreignExchangeOf(check({ exchangeRate: rate, currency: 'KZT' }), 'KZT')).toBeUndefined();
  });

  it('nothing to show without a rate or with the same crediting currency (in any case)', () => {
    expect(foreignExchangeOf(check({}), 'KZT')).toBeUndefined();
    expect(foreignExchangeOf(check({ exchangeRate: '', serviceCurrency: '' }), 'KZT')).toBeUndefined();
    expect(
      foreignExchangeOf(check({ exchangeRate: '1', serviceCurrency: 'kzt', currency: 'KZT' }), 'KZT'),
    ).toBeUndefined();
  });

  it('a rate other than 1, exactly as written, with the currency paid in', () => {
    expect(foreignExchangeOf(check({ exchangeRate: '0.921', currency: 'USD' }), 'USD')).toEqual({
      exchangeRate: '0.921',
      paidIn: 'USD',
      creditedIn: undefined,
    });
    expect(foreignExchangeOf(check({ exchangeRate: '1.0001' }), 'KZT')).toEqual({
      exchangeRate: '1.0001',
      paidIn: 'KZT',
      creditedIn: undefined,
    });
    // Not a number at all: shown as the gateway wrote it, never taken for 1.
    expect(foreignExchangeOf(check({ exchangeRate: 'n/a' }), 'KZT')?.exchangeRate).toBe('n/a');
  });

  it('another crediting currency, even at a rate of 1 or with none given', () => {
    expect(foreignExchangeOf(check({ exchangeRate: '1.00', serviceCurrency: 'EUR', currency: 'KZT' }), 'KZT')).toEqual({
      exchangeRate: '1.00',
      paidIn: 'KZT',
      creditedIn: 'EUR',
    });
    expect(foreignExchangeOf(check({ serviceCurrency: 'EUR' }), 'USD')).toEqual({
      exchangeRate: undefined,
      paidIn: 'USD',
      creditedIn: 'EUR',
    });
  });
});
