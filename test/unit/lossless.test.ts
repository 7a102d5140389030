import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { isLosslessNumber, parseLosslessJson } from '../../src/protocol/lossless.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** A parse's outcome to compare: the value with each number as its text, or the error's message. */
function outcome(read: (text: string) => unknown, text: string): string {
  try {
    return JSON.stringify(read(text), (_key, value) => (isLosslessNumber(value) ? `number ${value.value}` : value));
  } catch (error) {
    return `error ${(error as Error).message}`;
  }
}

describe('lossless JSON', () => {
  it('gives what lossless-json gives, value or error, for texts made of what gateways send and the ways it goes wrong', () => {
    const random = seededRandom(11);
    const next = (below: number) => Math.floor(random() * below);
    const pick = <T>(items: readonly T[]) => items[next(items.length)]!;
    const numbers = [
      '0',
      '-0',
      '7',
      '10.630',
      '1795484143928524253',
      '9007199254740993',
      '1e5',
      '1E+2',
      '-0.5e-3',
      '01',
      '1.',
      '-',
      '.5',
    ];
    const strings = [
      '""',
      '"a"',
      '"Успех"',
      '"a\\"1"',
      '"\\\\"',
      '"\\u0001x"',
      '"5002"',
      '"\\n"',
      '"unterminated',
      '"{\\"InvoiceId\\":5001}"',
    ];
    const keys = ['"a"', '"b"', '"1"', '"__proto__"', '"TransactinID"', '"a"'];
    const space = () => pick(['', '', ' ', '\n ']);
    const value = (depth: number): string => {
      const kind = next(depth > 3 ? 3 : 6);
      if (kind === 0) return pick(numbers);
      if (kind === 1) return pick(strings);
      if (kind === 2) return pick(['true', 'false', 'null', 'nul']);
      if (kind === 3) return `[${Array.from({ length: next(4) }, () => space() + value(depth + 1)).join(',')}]`;
      return `{${Array.from({ length: next(4) }, () => `${space()}${pick(keys)}${space()}:${value(depth + 1)}`).join(',')}}`;
    };
    let natively = 0;
    for (let round = 0; round < 3000; round++) {
      const text = space() + value(0) + space();
      const expected = outcome(parse, text);
      expect(outcome(parseLosslessJson, text), text).toBe(expected);
      if (!expected.startsWith('error')) natively++;
    }
    // The comparison covered plenty of texts that parse, not only errors.
    expect(natively).toBeGreaterThan(1000);
  });

  it('keeps every digit of Longs and amounts in a gateway answer', () => {
    const answer = parseLosslessJson(
      '{"TransactinID":1795484143928524253,"Amount":10.630,"Message":"Успех 5"}',
    ) as Record<string, unknown>;
    expect(answer.TransactinID).toEqual(expect.objectContaining({ value: '1795484143928524253' }));
    expect(answer.Amount).toEqual(expect.objectContaining({ value: '10.630' }));
    expect(answer.Message).toBe('Успех 5');
  });
});
