import { exactTextAt, memberOf, objectAt, optionalTextAt, pathOf, ShapeError } from './json-shape.js';
import { isLosslessNumber, parseLosslessJson } from './lossless.js';
import { MalformedAnswerError } from './problems.js';

/** spec 2.4: an Extras item; FieldValue is itself a JSON document held in a string (vouchers.ts). */
export interface ExtraItem {
  FieldName?: string | undefined;
  FieldValue: string;
}

// A gateway answer (spec 2.2-2.4) as the program reads it. readAnswer is its one definition, hand-written
// rather than zod so that commands talking to the gateway do not load zod (docs/performance.md "Validators").
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
  /** The voucher list (spec 4.1); null when Extras is absent or null (a static service, spec 4.3). */
  extras: ExtraItem[] | null;
  /** The whole answer as parsed, numbers kept exact, for --json. */
  raw: unknown;
}

/** A text field of `object` that may be absent or null (both read as undefined). */
const textOf = (object: object, at: string, key: string): string | undefined =>
  optionalTextAt(memberOf(object, key), pathOf(at, key));

function readExtraItem(item: unknown, at: string): ExtraItem {
  const object = objectAt(item, at);
  const fieldValue = memberOf(object, 'FieldValue');
  if (typeof fieldValue !== 'string')
    throw new ShapeError(pathOf(at, 'FieldValue'), 'a string holding a JSON document', fieldValue);
  return { FieldName: textOf(object, at, 'FieldName'), FieldValue: fieldValue };
}

/** Extras: absent or null (no voucher list), or a list of items. */
function readExtras(extras: unknown, at: string): ExtraItem[] | null {
  if (extras === undefined || extras === null) return null;
  if (!Array.isArray(extras)) throw new ShapeError(at, 'a list of Extras items', extras);
  return extras.map((item: unknown, index) => readExtraItem(item, pathOf(at, index)));
}

/** ResponseStatus: the one field without which an answer means nothing (spec 2.2). */
function readStatus(envelope: object): string {
  const value = memberOf(envelope, 'ResponseStatus');
  const status = exactTextAt(value, 'ResponseStatus', 'an integer');
  if (!/^-?\d+$/.test(status)) throw new ShapeError('ResponseStatus', 'an integer', value);
  return status;
}

// spec 2.2-2.3, every field but ResponseStatus optional. `TransactinID` (sic) and `TransactionID`, `account` and
// `Account` are both read; ExchangeRate and ServiceCurrency may sit in the envelope (spec 4.4). Other keys
// stay in `raw` only.
function readAnswer(raw: unknown): GatewayAnswer {
  const envelope = objectAt(raw, 'the body');
  const status = readStatus(envelope);
  const contentValue = memberOf(envelope, 'TransactionContent');
  // A JSON number there comes from the lossless parser as an object without these fields.
  const content =
    contentValue === undefined || contentValue === null ? {} : objectAt(contentValue, 'TransactionContent');
  const field = (key: string) => textOf(envelope, '', key);
  const inContent = (key: string) => textOf(content, 'TransactionContent', key);
  const transactinId = field('TransactinID');
  const transactionId = field('TransactionID');
  const contentAccount = inContent('account');
  const contentAccountUpper = inContent('Account');
  const exchangeRate = inContent('ExchangeRate');
  const envelopeExchangeRate = field('ExchangeRate');
  const serviceCurrency = inContent('ServiceCurrency');
  const envelopeServiceCurrency = field('ServiceCurrency');
  return {
    transactionId: transactinId ?? transactionId,
    requestId: field('RequestID'),
    type: field('ResponseType'),
    status,
    message: field('Message') ?? '',
    service: inContent('Service'),
    account: contentAccount ?? contentAccountUpper,
    amount: inContent('Amount'),
    currency: inContent('Currency'),
    exchangeRate: exchangeRate ?? envelopeExchangeRate,
    serviceCurrency: serviceCurrency ?? envelopeServiceCurrency,
    extras: readExtras(memberOf(content, 'Extras'), 'TransactionContent.Extras'),
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
  try {
    return readAnswer(raw);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new MalformedAnswerError(`the answer is not the gateway envelope (${error.message})`, { cause: error });
  }
}

// A whole number or a plain decimal, as ids, amounts and rates are written: kept byte for byte.
const numberText = /^-?\d+(?:\.\d+)?$/;

// The answer with every text the gateway chose passed through `redact`; codes, ids, amounts and rates stay
// byte for byte. An answer with nothing to blank is not copied.
export function redactedAnswer(answer: GatewayAnswer, redact: (text: string) => string): GatewayAnswer {
  let changed = false;
  const text = (value: string | undefined) => {
    const redacted = value === undefined || value === '' ? value : redact(value);
    changed ||= redacted !== value;
    return redacted;
  };
  const number = (value: string | undefined) => (value === undefined || numberText.test(value) ? value : text(value));
  const redacted: GatewayAnswer = {
    transactionId: number(answer.transactionId),
    requestId: number(answer.requestId),
    type: text(answer.type),
    status: answer.status,
    message: text(answer.message) ?? '',
    service: text(answer.service),
    account: text(answer.account),
    amount: number(answer.amount),
    currency: text(answer.currency),
    exchangeRate: number(answer.exchangeRate),
    serviceCurrency: text(answer.serviceCurrency),
    extras: answer.extras === null ? null : (blanked(answer.extras, text) as ExtraItem[]),
    raw: blanked(answer.raw, text),
  };
  return changed ? redacted : answer;
}

// A parsed answer with each string blanked by `text`, keys and numbers too (a password of digits echoed as a
// number): `check --json` prints the envelope whole, vouchers and all (docs/security.md).
function blanked(value: unknown, text: (value: string) => string | undefined): unknown {
  if (typeof value === 'string') return text(value);
  if (isLosslessNumber(value)) {
    const shown = text(value.value);
    return shown === value.value ? value : shown;
  }
  if (Array.isArray(value)) return value.map((item) => blanked(item, text));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [text(key), blanked(item, text)]));
}
