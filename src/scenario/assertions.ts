import { z } from 'zod';
import { en } from '../i18n/en.js';
import type { Found, Wanted } from '../i18n/scenario-checks.js';
import { isLosslessNumber } from '../protocol/lossless.js';
import { sameDecimal } from '../protocol/money.js';
import { type PathSegment, type PathValue, resolvePath, showValue, typeOfValue, valueText } from './path.js';
import { interpolate, PlaceholderError, type PlaceholderScope } from './placeholders.js';

// What a step may expect of its record, a path at a time (docs/scenarios.md "Assertions"). Values compare as
// text (`10` and `"10"` alike, 10.630 stays 10.630); decimal-equals is for what spec 2.3 types as a number,
// never OrderAmount (spec 2.4). A missing value fails every check but `exists: false`.
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
  /** `wanted` and `found` in English: what reports and --json keep, the same in every language. */
  expected: string;
  actual: string;
  wanted: Wanted;
  found: Found;
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

function foundOf(found: PathValue): Found {
  return found.absence === undefined ? { value: showValue(found.value) } : { absence: found.absence };
}

function resultOf(path: string, check: MatcherCheck, ok: boolean, wanted: Wanted, found: Found): AssertionResult {
  return {
    path,
    check,
    ok,
    expected: en.scenario.expected(wanted),
    actual: en.scenario.actual(found),
    wanted,
    found,
  };
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
      results.push(
        resultOf(found.path, 'equals', false, { check: 'placeholder', problem: error.message }, foundOf(found)),
      );
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
  const result = (ok: boolean, wanted: Wanted, got = foundOf(found)) => resultOf(found.path, check, ok, wanted, got);
  const present = found.absence === undefined;
  if (check === 'exists') {
    const exists = present && found.value !== null;
    const got: Found = exists ? foundOf(found) : { absence: found.absence ?? { why: 'null' } };
    return result(exists === expectedValue, { check, present: expectedValue === true }, got);
  }
  const value = found.value;
  switch (check) {
    case 'equals':
    case 'not-equals':
      return result(present && sameValue(value, expectedValue) === (check === 'equals'), {
        check,
        value: showValue(expectedValue),
      });
    case 'one-of':
      return result(present && (expectedValue as unknown[]).some((option) => sameValue(value, option)), {
        check,
        values: (expectedValue as unknown[]).map(showValue),
      });
    case 'type':
      return result(
        present && typeOfValue(value) === expectedValue,
        { check, type: String(expectedValue) },
        present ? { value: showValue(value), type: typeOfValue(value) } : foundOf(found),
      );
    case 'matches': {
      const pattern = String(expectedValue);
      let compiled: RegExp;
      try {
        compiled = new RegExp(pattern, 'u');
      } catch (error) {
        return result(false, { check, pattern, error: (error as Error).message });
      }
      const scalar = present && !Array.isArray(value) && !isRecord(value);
      return result(scalar && compiled.test(valueText(value)), { check, pattern });
    }
    case 'contains': {
      const wanted = valueText(expectedValue);
      const inList = Array.isArray(value);
      const ok =
        present &&
        (inList
          ? value.some((item) => sameValue(item, expectedValue))
          : typeof value === 'string' && value.includes(wanted));
      return result(ok, { check, inList, value: inList ? showValue(expectedValue) : showValue(wanted) });
    }
    case 'decimal-equals': {
      const scalar = present && (typeof value === 'string' || isLosslessNumber(value));
      return result(scalar && sameDecimal(valueText(value), String(expectedValue)), {
        check,
        value: String(expectedValue),
      });
    }
    case 'same-as': {
      const name = String(expectedValue);
      const [other] = resolvePath(context.recordOf(name), found.segments);
      const ok = present && other !== undefined && other.absence === undefined && sameValue(value, other.value);
      const otherFound: Found = other === undefined ? { absence: { why: 'missing' } } : foundOf(other);
      return result(ok, { check, other: otherFound, path: found.path, step: name });
    }
  }
}
