import { UsageError } from '../errors.js';
import type { NumberUnit } from '../i18n/en.js';
import { t } from '../run-scope.js';

// Option values as commander hands them over (text, a switch's boolean, a repeatable option's list, undefined),
// read by small parsers: a schema library would weigh on every start-up (docs/performance.md).

/** A whole number within bounds, or a UsageError with the rule's message. */
export function wholeNumberOption(
  raw: unknown,
  rule: { fallback: string; maxDigits: number; min?: number; max?: number; flag: string; unit?: NumberUnit },
): number {
  const text = raw === undefined ? rule.fallback : raw;
  if (typeof text === 'string' && /^\d+$/.test(text) && text.length <= rule.maxDigits) {
    const value = Number(text);
    if (value >= (rule.min ?? 0) && value <= (rule.max ?? Number.MAX_SAFE_INTEGER)) return value;
  }
  const range = rule.min === undefined || rule.max === undefined ? undefined : { min: rule.min, max: rule.max };
  throw new UsageError(t().commands.wholeNumber(rule.flag, rule.unit, range));
}

/** Look-ups in flight at once when --concurrency is not given. */
export const defaultConcurrency = 4;

/** --concurrency of status, reconcile and a bulk pay. */
export function concurrencyOption(raw: unknown): number {
  return wholeNumberOption(raw, {
    fallback: String(defaultConcurrency),
    maxDigits: 3,
    min: 1,
    max: 256,
    flag: '--concurrency',
  });
}

/** --concurrency of status and reconcile: Status look-ups. */
export const lookupConcurrencyDefinition = {
  flag: '--concurrency <n>',
  help: {
    en: `look-ups in flight at once (default ${defaultConcurrency})`,
    ru: `сколько запросов одновременно (по умолчанию ${defaultConcurrency})`,
  },
  parse: concurrencyOption,
} as const;

export function optionalText(raw: unknown, flag: string): string | undefined {
  if (raw === undefined || typeof raw === 'string') return raw;
  throw new UsageError(t().options.takesText(flag));
}

/** Options as commander hands them over: a record of what was given. */
export function optionRecord(raw: unknown): Record<string, unknown> {
  return typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
}

/** A value that must be given and not blank: `--service is required`, `--service must not be empty`. */
export function requiredText(raw: unknown, flag: string): string {
  if (raw === undefined) throw new UsageError(t().options.required(flag));
  const text = optionalText(raw, flag);
  if (text === undefined || text.trim() === '') throw new UsageError(t().options.notEmpty(flag));
  return text;
}

/** A value that may be left out, but not given blank. */
export function optionalNonBlankText(raw: unknown, flag: string): string | undefined {
  const text = optionalText(raw, flag);
  if (text !== undefined && text.trim() === '') throw new UsageError(t().options.notEmpty(flag));
  return text;
}

/** A switch such as --dry-run: false unless given. */
export function switchOption(raw: unknown, flag: string): boolean {
  if (raw === undefined) return false;
  if (typeof raw === 'boolean') return raw;
  throw new UsageError(t().options.isSwitch(flag));
}

/** A repeatable option (`--var a=1 --var b=2`): the values given, in order. */
export function textListOption(raw: unknown, flag: string): string[] {
  if (raw === undefined) return [];
  if (Array.isArray(raw) && raw.every((value) => typeof value === 'string')) return raw;
  throw new UsageError(`${flag} takes text values`);
}

/** One of a fixed set of words, or a UsageError with the message that lists them. */
export function choiceOption<T extends string>(raw: unknown, choices: readonly T[], message: string): T | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && (choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(message);
}
