import { describe, expect, it } from 'vitest';
import { FirstSeen } from '../../src/commands/pay/bulk/first-seen.js';
import { seededRandom } from '../helpers/seeded-random.js';

/** Texts with repeats: accounts that differ in a digit or two, and some Cyrillic ones. */
function textsOf(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const n = Math.floor(random() * count * 0.6);
    return random() < 0.1 ? `счёт-${n}` : `${7_000_000_000 + n}`;
  });
}

describe('the first row of each text', () => {
  it.each([
    ['sized for the rows', (texts: string[]) => texts.length],
    ['grown from a small table', () => 1],
  ])('gives the first row of each text, as a Map would (%s)', (_, expected) => {
    const texts = textsOf(50_000, 7);
    const firsts = new FirstSeen((index) => texts[index]!, expected(texts));
    const byMap = new Map<string, number>();
    texts.forEach((text, index) => {
      const first = byMap.get(text);
      if (first === undefined) byMap.set(text, index);
      expect(firsts.firstOrAdd(index, text)).toBe(first ?? -1);
    });
    for (const text of [...byMap.keys()].slice(0, 5000)) expect(firsts.find(text)).toBe(byMap.get(text));
    for (const text of ['', '7', 'счёт', '6999999999', `${7_000_000_000 + 50_000}x`])
      expect(firsts.find(text)).toBe(-1);
    firsts.release();
  });
});
