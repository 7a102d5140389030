import { z } from 'zod';
import { isLosslessNumber } from '../protocol/lossless.js';
import { sameDecimal } from '../protocol/money.js';
import { type PathSegment, type PathValue, resolvePath, showValue, typeOfValue, valueText } from './path.js';
import { interpolate, PlaceholderError, type PlaceholderScope } from './placeholders.js';

/**
 * What a step may expect of its record, one path at a time:
 *   state: success                       (a plain value means equals)
 *   message: { contains: Успех }
 *   requestId: { same-as: first }        (the same path in the record of step `first`)
 *   envelope.TransactinID: { exists: true }
 *   amount: { decimal-equals: 1500 }     (the same number: 1500.00 passes, 24970 does not)
 * Values compare by their text, so `status: 10` and `status: "10"` are the same, and a
 * gateway's 10.630 stays 10.630; decimal-equals is for what spec 2.3 types as a number
 * (TransactionContent.Amount), never for OrderAmount, which is exact text (spec 2.4).
 * A missing value fails every check but `exists: false`.
 */
const valueTypes = ['string', 'number', 'boolean', 'null', 'list', 'object'] as const;

const matcherObjectSchema = z
  .strictObject({
    equals: z.unknown().optional(),
    'not-equals': z.unknown().optional(),
    matches: z.string().optional(),
    contains: z.unknown().optional(),
    exists: z.boolean().optional(),
    type: z.enum(valueTypes, { error: `type is one of ${valueTypes.join(', ')}` }).optional(),
    'one-of': z.array(z.unknown()).min(1).optional(),
    'same-as': z.string().optional(),
    'decimal-equals': z.string({ error: 'decimal-equals takes a decimal such as 1500.00' }).optional(),
  })
  .refine(
    (m) => Object.keys(m).length > 0,
    'give a check: equals, not-equals, matches, contains, exists, type, one-of, same-as or decimal-equals',
  );

export const matcherSchema = z.union([
  z.union([z.string(), z.boolean(), z.null()]).transform((value) => ({ equals: value })),
  matcherObjectSchema,
]);
type Matcher = z.infer<typeof matcherObjectSchema>;
type MatcherCheck = keyof Matcher;

export interface Expectation {
  /** As written in the file. */
  path: string;
  segments: PathSegment[];
  matcher: Matcher;
}

export interface AssertionResult {
  /** The concrete path checked (`[*]` resolved to each index). */
  path: string;
  check: MatcherCheck;
  ok: boolean;
  expected: string;
  actual: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical(value[key])]),
    );
  }
  return value === null || value === undefined ? null : valueText(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function actualOf(found: PathValue): string {
  return found.missing === undefined ? showValue(found.value) : found.missing;
}

export interface EvaluationContext {
  /** Placeholders in expected values; `each` is added for the element a `[*]` reached. */
  scope: PlaceholderScope;
  /** The record of an earlier step, for same-as. */
  recordOf(name: string): unknown;
}

/** Runs one expectation against a record; one result per check and per value reached. */
export function evaluateExpectation(
  expectation: Expectation,
  record: unknown,
  context: EvaluationContext,
): AssertionResult[] {
  const results: AssertionResult[] = [];
  for (const found of resolvePath(record, expectation.segments)) {
    let matcher: Matcher;
    try {
      const scope = found.each ? new Map([...context.scope, ['each', found.each]]) : context.scope;
      matcher = interpolate(expectation.matcher, scope) as Matcher;
    } catch (error) {
      if (!(error instanceof PlaceholderError)) throw error;
      results.push({ path: found.path, check: 'equals', ok: false, expected: error.message, actual: actualOf(found) });
      continue;
    }
    for (const check of Object.keys(matcher) as MatcherCheck[]) {
      results.push(runCheck(check, matcher, found, context));
    }
  }
  return results;
}

function runCheck(
  check: MatcherCheck,
  matcher: Matcher,
  found: PathValue,
  context: EvaluationContext,
): AssertionResult {
  const expectedValue = (matcher as Record<string, unknown>)[check];
  const result = (ok: boolean, expected: string, actual = actualOf(found)): AssertionResult => ({
    path: found.path,
    check,
    ok,
    expected,
    actual,
  });
  const present = found.missing === undefined;
  if (check === 'exists') {
    const exists = present && found.value !== null;
    return result(
      exists === expectedValue,
      expectedValue ? 'present' : 'absent',
      exists ? actualOf(found) : present ? 'null' : found.missing!,
    );
  }
  const value = found.value;
  switch (check) {
    case 'equals':
      return result(present && sameValue(value, expectedValue), showValue(expectedValue));
    case 'not-equals':
      return result(present && !sameValue(value, expectedValue), `anything but ${showValue(expectedValue)}`);
    case 'one-of':
      return result(
        present && (expectedValue as unknown[]).some((option) => sameValue(value, option)),
        `one of ${(expectedValue as unknown[]).map(showValue).join(', ')}`,
      );
    case 'type':
      return result(
        present && typeOfValue(value) === expectedValue,
        `a ${String(expectedValue)}`,
        present ? `a ${typeOfValue(value)}: ${actualOf(found)}` : actualOf(found),
      );
    case 'matches': {
      let pattern: RegExp;
      try {
        pattern = new RegExp(String(expectedValue), 'u');
      } catch (error) {
        return result(false, `text matching /${String(expectedValue)}/ (${(error as Error).message})`);
      }
      const scalar = present && !Array.isArray(value) && !isRecord(value);
      return result(scalar && pattern.test(valueText(value)), `text matching /${String(expectedValue)}/`);
    }
    case 'contains': {
      const wanted = valueText(expectedValue);
      const ok =
        present &&
        (Array.isArray(value)
          ? value.some((item) => sameValue(item, expectedValue))
          : typeof value === 'string' && value.includes(wanted));
      return result(
        ok,
        Array.isArray(value) ? `a list holding ${showValue(expectedValue)}` : `text containing ${showValue(wanted)}`,
      );
    }
    case 'decimal-equals': {
      const scalar = present && (typeof value === 'string' || isLosslessNumber(value));
      return result(
        scalar && sameDecimal(valueText(value), String(expectedValue)),
        `the decimal ${String(expectedValue)}`,
      );
    }
    case 'same-as': {
      const name = String(expectedValue);
      const [other] = resolvePath(context.recordOf(name), found.segments);
      const otherText = other === undefined ? 'missing' : actualOf(other);
      const ok = present && other !== undefined && other.missing === undefined && sameValue(value, other.value);
      return result(ok, `${otherText} (the ${found.path} of step ${name})`);
    }
  }
}
