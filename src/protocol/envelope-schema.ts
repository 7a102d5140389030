import { z } from 'zod';
import { exactText } from './exact-text.js';
import { MalformedAnswerError } from './problems.js';

/**
 * The gateway envelope (spec 2.2-2.4) as a zod schema: the definition. envelope.ts takes a
 * plainly well-formed answer without loading zod (acceptEnvelope) and comes here for anything
 * else, to accept it or to say exactly what is wrong; a test keeps the two in agreement.
 */
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
export const envelopeSchema = z.looseObject({
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
export type Envelope = z.infer<typeof envelopeSchema>;

/** The envelope in a parsed answer, or a MalformedAnswerError saying where it is wrong. */
export function checkEnvelope(raw: unknown): Envelope {
  const parsed = envelopeSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : 'the body';
    throw new MalformedAnswerError(`the answer is not the gateway envelope (${where}: ${issue?.message ?? 'invalid'})`);
  }
  return parsed.data;
}
