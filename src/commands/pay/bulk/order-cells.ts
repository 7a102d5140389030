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

// The most characters a cell of each column may hold, checked first so a cell gone wrong is never quoted or
// sent: protocol/field-bounds.ts for service, account and amount, narrower own rules for the rest.
const cellMaxCharacters: Record<OrderColumn, number> = {
  service: serviceIdMaxDigits,
  account: accountMaxCharacters,
  amount: amountMaxDigits.whole + 1 + amountMaxDigits.fraction,
  key: orderKeyMaxCharacters,
  currency: orderKeyMaxCharacters,
  'invoice-id': orderKeyMaxCharacters,
  invoice: orderKeyMaxCharacters,
};

// What is wrong with a cell whatever its column: too long, or a character no field may hold. Undefined when
// the cell's own rule may read it.
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
