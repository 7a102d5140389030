import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * Gateway JSON is parsed losslessly: RequestID and TransactinID are Longs (spec 2.2) that
 * may exceed 2^53, and amounts must keep every digit (`10.630` stays `10.630`).
 *
 * Everything of ours (the sandbox too) takes it from here. The CLI runs it bundled into
 * dist/agentpay.cjs, so its ten ES modules cost no module loads there (docs/performance.md).
 */
export function parseLosslessJson(text: string): unknown {
  return parse(text);
}

/** `space` indents, for a report a person reads. */
export function stringifyLosslessJson(value: unknown, space?: number): string {
  return stringify(value, undefined, space) ?? 'null';
}

export { isLosslessNumber, LosslessNumber };

/** A JSON string or number as the exact text it was written with; undefined for anything else. */
export function exactTextOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return value instanceof LosslessNumber ? value.value : undefined;
}
