import { forbiddenCharacterText } from '../../../options/purchase.js';
import {
  accountMaxCharacters,
  amountMaxDigits,
  charactersUpTo,
  forbiddenCharacterIn,
  serviceIdMaxDigits,
} from '../../../protocol/field-bounds.js';
import { t } from '../../../run-scope.js';

/** The columns of an order (docs/commands.md "pay --from-file"), in the order messages list them. */
export const orderColumns = ['service', 'account', 'currency', 'invoice-id', 'invoice', 'amount', 'key'] as const;
export type OrderColumn = (typeof orderColumns)[number];

/** The key is the order's own reference (the results file, --json): at most this many characters. */
const orderKeyMaxCharacters = 128;

/**
 * The most characters a cell of each column may hold, checked before anything else reads the
 * cell, so that a cell gone wrong is never quoted whole in a message nor sent. Service, account
 * and amount are bounded as the protocol's fields are (protocol/field-bounds.ts); currency,
 * invoice-id and invoice by their own rules, narrower still (three letters, 19 digits, 6).
 */
const cellMaxCharacters: Record<OrderColumn, number> = {
  service: serviceIdMaxDigits,
  account: accountMaxCharacters,
  amount: amountMaxDigits.whole + 1 + amountMaxDigits.fraction,
  key: orderKeyMaxCharacters,
  currency: orderKeyMaxCharacters,
  'invoice-id': orderKeyMaxCharacters,
  invoice: orderKeyMaxCharacters,
};

/**
 * What is wrong with a cell's text whatever its column: longer than its column allows, or
 * holding a character no field may hold (a control character, a NUL above all, or half a
 * surrogate pair). Undefined when the cell's own rule may read it.
 */
export function cellTextProblem(column: OrderColumn, value: string): string | undefined {
  const max = cellMaxCharacters[column];
  if (charactersUpTo(value, max) > max) return t().bulk.cell.tooLong(max);
  const forbidden = forbiddenCharacterIn(value);
  return forbidden === undefined ? undefined : forbiddenCharacterText(forbidden);
}

/** A column or field name as a message shows it: a name gone wrong may be long. */
export function shownName(name: string): string {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}
