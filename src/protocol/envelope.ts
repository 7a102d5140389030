import type { Envelope, ExtraItem } from './envelope-schema.js';
import { exactTextOf, parseLosslessJson } from './lossless.js';
import { MalformedAnswerError } from './problems.js';

export type { ExtraItem } from './envelope-schema.js';

export interface GatewayAnswer {
  transactionId: string | undefined;
  requestId: string | undefined;
  type: string | undefined;
  /** ResponseStatus, as the text of the integer: "10" is success (spec 7). */
  status: string;
  message: string;
  service: string | undefined;
  account: string | undefined;
  amount: string | undefined;
  currency: string | undefined;
  exchangeRate: string | undefined;
  serviceCurrency: string | undefined;
  /**
   * The voucher list (spec 4.1) as sent; null when the answer has no Extras at all (absent or
   * null: a static service, spec 4.3). An empty list is not that: see vouchers.ts.
   */
  extras: ExtraItem[] | null;
  /** The whole answer as parsed, numbers kept exact, for --json. */
  raw: unknown;
}

/** An object as JSON gives it; one with a "__proto__" key is left to the schema. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, '__proto__');

const refused = Symbol('refused');

/** A field the schema types `exactText.nullish()`: its text, null, absent, or refused. */
function nullishText(value: unknown): string | null | undefined | typeof refused {
  if (value === undefined || value === null) return value;
  return exactTextOf(value) ?? refused;
}

/** Copies the nullish text fields `keys` of `from` into `to`; false if one is refused. */
function copyTexts(from: Record<string, unknown>, keys: readonly string[], to: Record<string, unknown>): boolean {
  for (const key of keys) {
    const text = nullishText(from[key]);
    if (text === refused) return false;
    if (text !== undefined) to[key] = text;
  }
  return true;
}

function acceptExtraItem(item: unknown): ExtraItem | undefined {
  if (!isPlainObject(item) || typeof item.FieldValue !== 'string') return undefined;
  const accepted: Record<string, unknown> = {};
  if (!copyTexts(item, ['FieldName'], accepted)) return undefined;
  accepted.FieldValue = item.FieldValue;
  // The item is a loose object: keys beyond the two are kept, as the schema keeps them.
  for (const key of Object.keys(item)) if (key !== 'FieldName' && key !== 'FieldValue') accepted[key] = item[key];
  return accepted as ExtraItem;
}

const contentTexts = ['Service', 'account', 'Account', 'Amount', 'Currency', 'ExchangeRate', 'ServiceCurrency'];
const envelopeTexts = ['TransactinID', 'TransactionID', 'RequestID', 'ResponseType', 'Message', 'ExchangeRate', 'ServiceCurrency'];

function acceptContent(content: unknown): Record<string, unknown> | null | undefined | typeof refused {
  if (content === undefined || content === null) return content;
  if (!isPlainObject(content)) return refused;
  const accepted: Record<string, unknown> = {};
  if (!copyTexts(content, contentTexts, accepted)) return refused;
  const extras = content.Extras;
  if (extras === null) accepted.Extras = null;
  else if (extras !== undefined) {
    if (!Array.isArray(extras)) return refused;
    const items: ExtraItem[] = [];
    for (const item of extras) {
      const acceptedItem = acceptExtraItem(item);
      if (acceptedItem === undefined) return refused;
      items.push(acceptedItem);
    }
    accepted.Extras = items;
  }
  return accepted;
}

/**
 * The envelope's fields when the answer is plainly what envelopeSchema (envelope-schema.ts)
 * accepts, read without loading zod; undefined when only the schema can say. Every answer of
 * a batch comes this way; a test keeps it in agreement with the schema.
 */
export function acceptEnvelope(raw: unknown): Envelope | undefined {
  if (!isPlainObject(raw)) return undefined;
  const accepted: Record<string, unknown> = {};
  if (!copyTexts(raw, envelopeTexts, accepted)) return undefined;
  const status = exactTextOf(raw.ResponseStatus);
  if (status === undefined || !/^-?\d+$/.test(status)) return undefined;
  accepted.ResponseStatus = status;
  const content = acceptContent(raw.TransactionContent);
  if (content === refused) return undefined;
  if (content !== undefined) accepted.TransactionContent = content;
  return accepted as Envelope;
}

const orUndefined = (value: string | null | undefined) => value ?? undefined;

function answerOf(envelope: Envelope, raw: unknown): GatewayAnswer {
  const content = envelope.TransactionContent ?? undefined;
  return {
    transactionId: orUndefined(envelope.TransactinID ?? envelope.TransactionID),
    requestId: orUndefined(envelope.RequestID),
    type: orUndefined(envelope.ResponseType),
    status: envelope.ResponseStatus,
    message: envelope.Message ?? '',
    service: orUndefined(content?.Service),
    account: orUndefined(content?.account ?? content?.Account),
    amount: orUndefined(content?.Amount),
    currency: orUndefined(content?.Currency),
    exchangeRate: orUndefined(content?.ExchangeRate ?? envelope.ExchangeRate),
    serviceCurrency: orUndefined(content?.ServiceCurrency ?? envelope.ServiceCurrency),
    extras: content?.Extras ?? null,
    raw,
  };
}

function parseAnswerJson(body: string): unknown {
  try {
    return parseLosslessJson(body);
  } catch (error) {
    throw new MalformedAnswerError(`the answer is not JSON (${(error as Error).message})`, { cause: error });
  }
}

/** Parses a gateway body; rejects with MalformedAnswerError when it is not the envelope. */
export async function parseEnvelope(body: string): Promise<GatewayAnswer> {
  const raw = parseAnswerJson(body);
  const envelope = acceptEnvelope(raw) ?? (await import('./envelope-schema.js')).checkEnvelope(raw);
  return answerOf(envelope, raw);
}

