import type { GatewayAnswer } from './envelope.js';
import { sameDecimal } from './money.js';

/** A purchase that is credited at a rate or in a currency other than the one paid in. */
export interface ForeignExchange {
  /** ExchangeRate exactly as the gateway wrote it; undefined when it gave none. */
  exchangeRate: string | undefined;
  /** The Currency the Amount is paid in. */
  paidIn: string;
  /** ServiceCurrency, the crediting currency (spec 2.3); AccountCheck answers often leave it out. */
  creditedIn: string | undefined;
}

const given = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text);

// What a person must see before saying yes: an ExchangeRate that is not 1 as a decimal, or a ServiceCurrency
// that is not the Currency paid (spec 4.4). Undefined for a plain purchase in one currency.
export function foreignExchangeOf(
  answer: Pick<GatewayAnswer, 'exchangeRate' | 'serviceCurrency' | 'currency'>,
  sentCurrency: string,
): ForeignExchange | undefined {
  const paidIn = given(answer.currency) ?? sentCurrency;
  const exchangeRate = given(answer.exchangeRate);
  const creditedIn = given(answer.serviceCurrency);
  const otherRate = exchangeRate !== undefined && !sameDecimal(exchangeRate, '1');
  const otherCurrency = creditedIn !== undefined && creditedIn.toUpperCase() !== paidIn.toUpperCase();
  return otherRate || otherCurrency ? { exchangeRate, paidIn, creditedIn } : undefined;
}
