import { z } from 'zod';
import { type Expectation, matcherSchema } from './assertions.js';

export const stepKinds = ['check', 'pay', 'status', 'repeat-pay', 'wait'] as const;
export type StepKind = (typeof stepKinds)[number];

export const text = z.string();
export const optionalText = text.optional();

/** The CLI's own option names (`invoice-id`, `txn-id`, ...), plus what only a scenario needs. */
export const optionSchemas = {
  check: z.strictObject({ service: text, account: text, amount: optionalText, currency: optionalText }),
  pay: z
    .strictObject({
      service: text,
      account: text,
      currency: optionalText,
      'invoice-id': optionalText,
      /** The voucher at this position of the list (`Invoice-<n>`), from 1. */
      invoice: optionalText,
      amount: optionalText,
      'txn-id': optionalText,
      'dry-run': z.boolean().optional(),
      /** Send the fields as written: no AccountCheck first, no amount check (conformance). */
      raw: z.boolean().optional(),
    })
    .refine(
      (o) => o['invoice-id'] === undefined || o.invoice === undefined,
      'give invoice-id or invoice (a position), not both',
    )
    .refine(
      (o) => o['invoice-id'] !== undefined || o.invoice !== undefined || o.amount !== undefined,
      'give invoice-id, invoice (a position from 1) or amount',
    )
    .refine((o) => !o.raw || o.amount !== undefined, 'raw sends Amount as written: give amount')
    .refine(
      (o) => !o.raw || o.invoice === undefined,
      'raw sends the fields as written: give invoice-id, not a position',
    ),
  status: z.strictObject({ 'txn-id': optionalText, wait: optionalText }),
  wait: z.strictObject({ 'txn-id': optionalText, seconds: optionalText }),
  'repeat-pay': z.strictObject({ of: optionalText }),
} satisfies Record<StepKind, z.ZodType>;

/** What a step's record holds, for catching a misspelt path before anything is sent. */
const viewFields = [
  'transactionId',
  'requestId',
  'type',
  'status',
  'state',
  'message',
  'service',
  'account',
  'amount',
  'currency',
  'exchangeRate',
  'serviceCurrency',
];
const rawFields = ['envelope', 'request', 'error'];
export const recordFields: Record<StepKind, readonly string[]> = {
  check: [...viewFields.filter((f) => f !== 'serviceCurrency'), 'vouchers', ...rawFields],
  pay: [...viewFields, 'warnings', ...rawFields, 'dryRun', 'endpoint', 'form'],
  status: [...viewFields, 'warnings', ...rawFields],
  wait: [...viewFields, 'warnings', ...rawFields],
  'repeat-pay': [...viewFields, 'warnings', ...rawFields],
};

const namePattern = /^[A-Za-z_][\w-]*$/;
const reservedNames = ['var', 'row', 'self', 'each'];

export const commonSchema = z.strictObject({
  id: text
    .regex(namePattern, 'id is a name: letters, digits, _ and -')
    .refine(
      (id) => !reservedNames.includes(id) && !(stepKinds as readonly string[]).includes(id),
      `id must not be ${[...reservedNames, ...stepKinds].join(', ')}`,
    )
    .optional(),
  name: optionalText,
  credentials: z.strictObject({ 'agent-id': optionalText, password: optionalText }).optional(),
  expect: z.record(z.string(), matcherSchema).optional(),
});

export type StepOptions = Record<string, string | boolean | undefined>;

export interface StepDefinition {
  kind: StepKind;
  /** From 1, within its case. */
  number: number;
  id: string | undefined;
  name: string | undefined;
  /** As written: placeholders are filled in when the step runs. */
  options: StepOptions;
  credentials: { 'agent-id'?: string | undefined; password?: string | undefined } | undefined;
  expect: Expectation[];
}
