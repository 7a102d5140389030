import { UsageError } from '../errors.js';

/*
 * Option values as commander hands them over: a string, or undefined when not given.
 * status and reconcile parse their options with these instead of a zod schema (as settings/parsers.ts
 * parses flag values): they are the commands run in batches and from cron, and loading zod
 * costs about as much as starting Node does (docs/performance.md).
 */

/** A whole number within bounds, or a UsageError with the rule's message. */
export function wholeNumberOption(raw: unknown, rule: { fallback: string; maxDigits: number; min?: number; max?: number; message: string }): number {
  const text = raw === undefined ? rule.fallback : raw;
  if (typeof text === 'string' && /^\d+$/.test(text) && text.length <= rule.maxDigits) {
    const value = Number(text);
    if (value >= (rule.min ?? 0) && value <= (rule.max ?? Number.MAX_SAFE_INTEGER)) return value;
  }
  throw new UsageError(rule.message);
}

/** --concurrency of status and reconcile. */
export const concurrencyOption = (raw: unknown) =>
  wholeNumberOption(raw, { fallback: '4', maxDigits: 3, min: 1, max: 256, message: '--concurrency takes a whole number from 1 to 256' });

export function optionalText(raw: unknown, flag: string): string | undefined {
  if (raw === undefined || typeof raw === 'string') return raw;
  throw new UsageError(`${flag} takes a text value`);
}

/** Options as commander hands them over: a record of what was given. */
export function optionRecord(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
}
