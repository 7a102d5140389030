import { UsageError } from '../errors.js';
import { isPlainDecimal } from '../protocol/money.js';
import type { Parse } from './parsers.js';

/** A profile's `services`, offered by `buy`'s picker and the Tab after `--service`: a name
 * (`"101": "GameCoins"`), or `{"name", "kind": "static", "amounts": [...]}` for a static one (spec 4.3). */
interface ServiceEntry {
  id: string;
  name: string | undefined;
  /** Undefined when the profile does not say: the gateway's AccountCheck decides, as for any id. */
  kind: ServiceKind | undefined;
  /** A static service's amounts, exact decimals as they will be sent (spec 4.2's rule, byte for byte); empty when none are listed. */
  amounts: readonly string[];
}

const serviceKinds = ['dynamic', 'static'] as const;
type ServiceKind = (typeof serviceKinds)[number];
const entryKeys = ['name', 'kind', 'amounts'];

/** The parsed `services`, in the order of the JSON object (integer-like ids ascending). */
export type ServiceEntries = readonly ServiceEntry[];

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `services."601".amounts[1]`: where in the profile a fault is. */
const pathOf = (id: string, ...rest: string[]) => [`services.${JSON.stringify(id)}`, ...rest].join('');

function fail(path: string, where: string, what: string): never {
  throw new UsageError(`${path} (${where}): ${what}`, {
    hint: 'write a service as "101": "GameCoins", or "601": {"name": "Cinema voucher", "kind": "static", "amounts": ["1500.00"]} (docs/configuration.md)',
  });
}

function amountsOf(id: string, raw: unknown, where: string): string[] {
  if (!Array.isArray(raw))
    fail(pathOf(id, '.amounts'), where, 'expected a list of amounts such as ["1500.00", "3000.00"]');
  const amounts: string[] = [];
  for (const [index, amount] of raw.entries()) {
    const path = pathOf(id, `.amounts[${index}]`);
    // A JSON number would not survive: 1500.10 reads back as 1500.1.
    if (typeof amount !== 'string')
      fail(path, where, `${JSON.stringify(amount)} must be written as text, such as "1500.00"`);
    if (!isPlainDecimal(amount))
      fail(path, where, `${JSON.stringify(amount)} is not a plain decimal such as "1500.00"`);
    if (/^0(\.0+)?$/.test(amount)) fail(path, where, 'an amount must be more than zero');
    if (amounts.includes(amount)) fail(path, where, `${JSON.stringify(amount)} is listed twice`);
    amounts.push(amount);
  }
  return amounts;
}

function entryOf(id: string, raw: unknown, where: string): ServiceEntry {
  if (id.trim() === '') fail(pathOf(id), where, 'a service id must not be blank');
  if (typeof raw === 'string') return { id, name: raw, kind: undefined, amounts: [] };
  if (!isPlainObject(raw)) fail(pathOf(id), where, 'expected a name, or an object {"name", "kind", "amounts"}');
  const unknownKey = Object.keys(raw).find((key) => !entryKeys.includes(key));
  if (unknownKey !== undefined)
    fail(pathOf(id, `.${unknownKey}`), where, `not a key of a service (${entryKeys.join(', ')})`);
  const { name, kind, amounts } = raw;
  if (name !== undefined && typeof name !== 'string') fail(pathOf(id, '.name'), where, 'expected text');
  if (kind !== undefined && !(serviceKinds as readonly unknown[]).includes(kind))
    fail(pathOf(id, '.kind'), where, 'expected "static" or "dynamic"');
  // A dynamic service's amounts come from its AccountCheck (spec 4.1): a list here could only disagree.
  if (amounts !== undefined && kind !== 'static')
    fail(pathOf(id, '.amounts'), where, 'only a service of "kind": "static" lists amounts');
  return {
    id,
    name,
    kind: kind as ServiceKind | undefined,
    amounts: amounts === undefined ? [] : amountsOf(id, amounts, where),
  };
}

/** The profile's `services`, each entry checked; errors name the entry's path in the profile. */
export const serviceEntries: Parse<ServiceEntries> = (raw, where) => {
  if (!isPlainObject(raw)) fail('services', where, 'expected services by id, as {"101": "GameCoins top-up"}');
  return Object.entries(raw).map(([id, entry]) => entryOf(id, entry, where));
};
