import { describe, expect, it } from 'vitest';
import { RecordPlaces } from '../../src/sandbox/record-places.js';

/** The sandbox's index of its state file (state-file.ts), with the "file" a list of keys by offset. */
function placesOver(keys: string[]) {
  const places = new RecordPlaces();
  const offsets = new Map<string, number>();
  let reads = 0;
  const keyAt = new Map<number, string>();
  const matcher = (key: string) => (number: number) => {
    reads++;
    return keyAt.get(places.offsetOf(number)) === key;
  };
  const write = (key: string, offset: number) => {
    keyAt.set(offset, key);
    offsets.set(key, offset);
    places.set(key, offset, matcher(key));
  };
  keys.forEach((key, i) => write(key, i * 400));
  return { places, offsets, write, matcher, reads: () => reads };
}

describe("the sandbox's record places", () => {
  it('finds each transaction by its key, its latest record, and nothing for a key never written', () => {
    // Enough keys of scattered digits that some share a 32-bit hash: those are told apart by their records alone.
    let seed = 12_345n;
    const next = () => (seed = (seed * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 64n);
    const keys = Array.from({ length: 300_000 }, () => `1001\n${next()}`);
    keys.push('1001\nnot-a-number', '1002\n4000000000000000', '');
    const { places, offsets, write, matcher, reads } = placesOver(keys);
    expect(places.size).toBe(keys.length);
    // A record is read only for a hash equal to a kept one's: a handful here, not one a key.
    expect(reads()).toBeGreaterThan(0);
    expect(reads()).toBeLessThan(100);
    write(keys[7]!, 99_999_999_999);
    expect(places.size).toBe(keys.length);
    for (const key of keys) {
      const number = places.get(key, matcher(key));
      expect(number === undefined ? undefined : places.offsetOf(number), key).toBe(offsets.get(key));
    }
    expect(places.get('1001\n5', matcher('1001\n5'))).toBeUndefined();
    // Numbers in the order first written, whatever came later.
    expect(places.offsetOf(0)).toBe(0);
    expect(places.offsetOf(7)).toBe(99_999_999_999);
  });
});
