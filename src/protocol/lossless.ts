import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

/**
 * Gateway JSON is parsed losslessly: RequestID and TransactinID are Longs (spec 2.2) that
 * may exceed 2^53, and amounts must keep every digit (`10.630` stays `10.630`).
 *
 * lossless-json's one-file CommonJS build is loaded rather than its ten ES modules, at half
 * the start-up cost; everything of ours (the sandbox too) takes it from here, so there is one
 * LosslessNumber class in a process.
 */
const { LosslessNumber, isLosslessNumber, parse, stringify } = createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
export function parseLosslessJson(text: string): unknown {
  return parse(text);
}

export function stringifyLosslessJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

export { LosslessNumber, isLosslessNumber };
export type LosslessNumber = LosslessJson.LosslessNumber;

/** A JSON string or number as the exact text it was written with; undefined for anything else. */
export function exactTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return value instanceof LosslessNumber ? value.value : undefined;
}
