import { ensureLength, growable, release } from '../../../packed/growable.js';

/**
 * The first row of each text (a key, a purchase, an account) among many rows, in typed arrays:
 * open addressing by a 32-bit FNV-1a hash of the text, a hit confirmed against the text of the
 * row it names (read back through `textOf`), so no string is kept per row. A Map of 1,000,000
 * strings held ~100 MB; this holds 8 bytes a slot, two slots a row, on resizable buffers given
 * back at once by `release` (packed/growable.ts), not when V8 next collects.
 */
export class FirstSeen {
  /** Row index + 1 per slot; 0 is an empty slot. */
  private slots: Int32Array;
  private hashes: Uint32Array;
  private count = 0;

  /** Made for `expected` rows at most, it never grows (no copy beside itself). */
  constructor(
    private readonly textOf: (index: number) => string,
    expected = 512,
  ) {
    let size = 1024;
    while (size < expected * 2) size *= 2;
    [this.slots, this.hashes] = tables(size);
  }

  /** Gives the tables' memory back: the rows' firsts are known, nothing more is asked. */
  release(): void {
    release(this.slots, this.hashes);
  }

  /** The first row whose text is `text`, or -1 when there was none (and `index` is now that row). */
  firstOrAdd(index: number, text: string): number {
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const hash = hashOf(text);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!;
      if (held === 0) {
        this.slots[slot] = index + 1;
        this.hashes[slot] = hash;
        this.count++;
        return -1;
      }
      if (this.hashes[slot] === hash && this.textOf(held - 1) === text) return held - 1;
    }
  }

  /** The first row whose text is `text`, or -1 when there is none (nothing is added). */
  find(text: string): number {
    const hash = hashOf(text);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const held = this.slots[slot]!;
      if (held === 0) return -1;
      if (this.hashes[slot] === hash && this.textOf(held - 1) === text) return held - 1;
    }
  }

  private grow(): void {
    const [slots, hashes] = [this.slots, this.hashes];
    [this.slots, this.hashes] = tables(slots.length * 2);
    const mask = this.slots.length - 1;
    for (let from = 0; from < slots.length; from++) {
      if (slots[from] === 0) continue;
      let slot = hashes[from]! & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = slots[from]!;
      this.hashes[slot] = hashes[from]!;
    }
    release(slots, hashes);
  }
}

function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

function tables(size: number): [Int32Array, Uint32Array] {
  const [slots, hashes] = [growable(Int32Array), growable(Uint32Array)];
  ensureLength(slots, size);
  ensureLength(hashes, size);
  return [slots, hashes];
}
