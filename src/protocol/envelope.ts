import { z } from 'zod';
import { exactText, parseLosslessJson } from './lossless.js';
import { MalformedAnswerError } from './problems.js';

const optionalText = exactText.nullish();

/** spec 2.4: an Extras item; FieldValue is itself a JSON document held in a string. */
export const extraItemSchema = z.looseObject({
  FieldName: optionalText,
  FieldValue: z.string(),
});
export type ExtraItem = z.infer<typeof extraItemSchema>;

/** spec 2.3. `account` is lower-case in answers; `Account` is accepted too. */
const transactionContentSchema = z.looseObject({
  Service: optionalText,
  account: optionalText,
  Account: optionalText,
  Amount: optionalText,
  Currency: optionalText,
  ExchangeRate: optionalText,
  ServiceCurrency: optionalText,
  Extras: z.array(extraItemSchema).nullish(),
});

/**
 * spec 2.2. `TransactinID` is spelled without the second "o"; a gateway that spells it
 * correctly is understood too. ResponseStatus is the one field without which an answer
 * means nothing, so it alone is required.
 */
const envelopeSchema = z.looseObject({
  TransactinID: optionalText,
  TransactionID: optionalText,
  RequestID: optionalText,
  ResponseType: optionalText,
  ResponseStatus: exactText.refine((s) => /^-?\d+$/.test(s), 'ResponseStatus must be an integer'),
  Message: optionalText,
  ExchangeRate: optionalText,
  ServiceCurrency: optionalText,
  TransactionContent: transactionContentSchema.nullish(),
});

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
  extras: ExtraItem[];
  /** The whole answer as parsed, numbers kept exact, for --json. */
  raw: unknown;
}

const orUndefined = (value: string | null | undefined) => value ?? undefined;

/** Parses a gateway body; throws MalformedAnswerError when it is not the envelope. */
export function parseEnvelope(body: string): GatewayAnswer {
  let raw: unknown;
  try {
    raw = parseLosslessJson(body);
  } catch (error) {
    throw new MalformedAnswerError(`the answer is not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the body';
    throw new MalformedAnswerError(`the answer is not the gateway envelope (${where}: ${issue?.message ?? 'invalid'})`);
  }
  const envelope = parsed.data;
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
    extras: content?.Extras ?? [],
    raw,
  };
}

export const successStatus = '10';
