import { gatewayIdentity } from '../protocol/gateway-identity.js';
import { memberOf, pathOf, ShapeError } from '../protocol/json-shape.js';
import { transactionStates } from '../protocol/transaction-view.js';

/** The ledger's two records, defined once as tables of fields: the types, readRecord (its errors
 * name the field) and lineOf (a journal line) come from them. Not zod: docs/performance.md. */
type FieldFormat =
  | { kind: 'text' }
  /** The gateway: text, read as its identity (protocol/gateway-identity.ts), however it was spelled. */
  | { kind: 'gateway' }
  | { kind: 'nullableText' }
  /** A string that may be left out (what older versions did not write). */
  | { kind: 'optionalText' }
  | { kind: 'oneOf'; values: readonly string[] }
  /** A list of strings that may be left out (a view's warnings). */
  | { kind: 'optionalTextList' }
  | { kind: 'record'; fields: RecordFormat };
type RecordFormat = { readonly [key: string]: FieldFormat };

const text = { kind: 'text' } as const;
const gateway = { kind: 'gateway' } as const;
const nullableText = { kind: 'nullableText' } as const;
const optionalText = { kind: 'optionalText' } as const;
const oneOf = <const T extends readonly string[]>(...values: T) => ({ kind: 'oneOf', values }) as const;

const viewFields = {
  transactionId: text,
  requestId: nullableText,
  type: nullableText,
  status: nullableText,
  state: oneOf(...transactionStates),
  message: text,
  service: nullableText,
  account: nullableText,
  amount: nullableText,
  currency: nullableText,
  exchangeRate: nullableText,
  serviceCurrency: nullableText,
  warnings: { kind: 'optionalTextList' },
} as const;

/** A record starts with its owner (TransactionIDs are unique per gateway and agent). An intent may
 * name its voucher, operator, host and the guards lifted for it (docs/desk-safety.md), which older
 * journals lack. */
const intentFields = {
  kind: oneOf('intent'),
  transactionId: text,
  gateway,
  agentId: text,
  service: text,
  account: text,
  amount: text,
  currency: text,
  invoiceId: nullableText,
  voucher: optionalText,
  operator: optionalText,
  host: optionalText,
  overrides: { kind: 'optionalTextList' },
  at: text,
} as const;

const outcomeSources = ['payment', 'settle', 'reconcile'] as const;

const outcomeFields = {
  kind: oneOf('outcome'),
  transactionId: text,
  gateway,
  agentId: text,
  at: text,
  source: oneOf(...outcomeSources),
  view: { kind: 'record', fields: viewFields },
} as const;

// ---------------------------------------------------------------- the types, from the table

type ValueOf<F> = F extends { kind: 'text' | 'optionalText' | 'gateway' }
  ? string
  : F extends { kind: 'nullableText' }
    ? string | null
    : F extends { kind: 'oneOf'; values: readonly (infer V)[] }
      ? V
      : F extends { kind: 'optionalTextList' }
        ? string[]
        : F extends { kind: 'record'; fields: infer R }
          ? RecordOf<R>
          : never;
type OptionalKeys<R> = {
  [K in keyof R]: R[K] extends { kind: 'optionalTextList' | 'optionalText' } ? K : never;
}[keyof R];
type Flat<T> = { [K in keyof T]: T[K] };
type RecordOf<R> = Flat<
  { -readonly [K in Exclude<keyof R, OptionalKeys<R>>]: ValueOf<R[K]> } & {
    -readonly [K in OptionalKeys<R>]?: ValueOf<R[K]>;
  }
>;

// ---------------------------------------------------------------- reading and writing

/** A field's value, checked; its path (`view.state`) is made only for the error that names it. */
function readField(format: FieldFormat, value: unknown, at: string, key: string): unknown {
  switch (format.kind) {
    case 'text':
    case 'optionalText':
      if (typeof value === 'string') return value;
      throw new ShapeError(pathOf(at, key), 'a string', value);
    case 'gateway':
      // An older agentpay wrote the base URL as typed (`HTTP://...:80/`): one name for one gateway.
      if (typeof value === 'string') return gatewayIdentity(value);
      throw new ShapeError(pathOf(at, key), 'a string', value);
    case 'nullableText':
      if (value === null || typeof value === 'string') return value;
      throw new ShapeError(pathOf(at, key), 'a string or null', value);
    case 'oneOf':
      if (typeof value === 'string' && format.values.includes(value)) return value;
      throw new ShapeError(pathOf(at, key), format.values.map((v) => JSON.stringify(v)).join(' or '), value);
    case 'optionalTextList':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...(value as string[])];
      throw new ShapeError(pathOf(at, key), 'a list of strings', value);
    case 'record':
      return readFields(format.fields, value, pathOf(at, key));
  }
}

const isOptional = (format: FieldFormat) => format.kind === 'optionalTextList' || format.kind === 'optionalText';

/** Each table's fields as a list, made once: every record read or written goes through it. */
const fieldLists = new WeakMap<RecordFormat, readonly (readonly [string, FieldFormat])[]>();
function fieldListOf(fields: RecordFormat): readonly (readonly [string, FieldFormat])[] {
  let list = fieldLists.get(fields);
  if (list === undefined) {
    list = Object.entries(fields);
    fieldLists.set(fields, list);
  }
  return list;
}

/** A copy of `value` with the fields of `fields`, in their order, each checked; other keys dropped. */
function readFields(fields: RecordFormat, value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeError(at, 'an object', value);
  const record: Record<string, unknown> = {};
  for (const [key, format] of fieldListOf(fields)) {
    const member = memberOf(value, key);
    if (member === undefined && isOptional(format)) continue;
    record[key] = readField(format, member, at, key);
  }
  return record;
}

export type IntentRecord = RecordOf<typeof intentFields>;
export type OutcomeRecord = RecordOf<typeof outcomeFields>;
export type JournalRecord = IntentRecord | OutcomeRecord;

/** A parsed journal line as a record, its keys in table order; a ShapeError if it is not one. */
export function readRecord(value: unknown): JournalRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ShapeError('the line', 'an object', value);
  const kind = memberOf(value, 'kind');
  if (kind === 'intent') return readFields(intentFields, value, '') as IntentRecord;
  if (kind === 'outcome') return readFields(outcomeFields, value, '') as OutcomeRecord;
  throw new ShapeError('kind', '"intent" or "outcome"', kind);
}

/** A record as one journal line, without the newline: always the writer's own form. */
export function lineOf(record: JournalRecord): string {
  return JSON.stringify(readRecord(record));
}
