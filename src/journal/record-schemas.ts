import { z } from 'zod';
import { transactionStates } from '../protocol/transaction-view.js';

/**
 * The journal's two records as zod schemas: the definition of what a journal line may hold.
 * Lines in the writer's own form are read without them (line-format.ts); every other line is
 * checked here (reader.ts). A test keeps the two ways in agreement.
 */
const nullableText = z.string().nullable();

export const transactionViewSchema = z.object({
  transactionId: z.string(),
  requestId: nullableText,
  type: nullableText,
  status: nullableText,
  state: z.enum(transactionStates),
  message: z.string(),
  service: nullableText,
  account: nullableText,
  amount: nullableText,
  currency: nullableText,
  exchangeRate: nullableText,
  serviceCurrency: nullableText,
  warnings: z.array(z.string()).exactOptional(),
});

/** The gateway and agent a transaction belongs to: TransactionIDs are unique per agent. */
const ownerFields = {
  transactionId: z.string(),
  /** The base URL, or "sandbox" for the embedded sandbox (whose port changes every run). */
  gateway: z.string(),
  agentId: z.string(),
  at: z.string(),
};

export const intentRecordSchema = z.object({
  kind: z.literal('intent'),
  ...ownerFields,
  service: z.string(),
  account: z.string(),
  amount: z.string(),
  currency: z.string(),
  invoiceId: nullableText,
});

export const outcomeSources = ['payment', 'settle', 'reconcile'] as const;

export const outcomeRecordSchema = z.object({
  kind: z.literal('outcome'),
  ...ownerFields,
  source: z.enum(outcomeSources),
  view: transactionViewSchema,
});

export const journalRecordSchema = z.discriminatedUnion('kind', [intentRecordSchema, outcomeRecordSchema]);
