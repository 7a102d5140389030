import { z } from 'zod';
import { UsageError } from '../errors.js';
import { parseAmount, parseCurrency } from '../protocol/money.js';

/** The options check, pay and buy share, validated once here. */
const text = (flag: string) =>
  z
    .string({ error: `${flag} is required` })
    .refine((value) => value.trim() !== '', `${flag} must not be empty`);

export const purchaseOptionsSchema = z.object({
  service: text('--service'),
  account: text('--account'),
  currency: z.string().default('KZT').transform((value) => parseCurrency(value)),
});

export function parseOptions<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(issue?.message ?? 'invalid options');
  }
  return parsed.data;
}

export const optionalAmount = z
  .string()
  .optional()
  .transform((value) => (value === undefined ? undefined : parseAmount(value)));

export const invoiceIdOption = z
  .string()
  .optional()
  .refine((value) => value === undefined || /^\d{1,19}$/.test(value), '--invoice-id must be digits, as in the check list');
