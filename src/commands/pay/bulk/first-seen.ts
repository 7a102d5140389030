import { ensureLength, growable, release } from '../../../packed/growable.js';

/**
 * The first row of each text (a key, a purchase, an account, a TransactionID) among many rows,
 * in typed arrays: open addressing by a 32-bit FNV-1a hash of the text, a hit confirmed against
 * the text of the row it names (read back through `textOf`), so no string is kept per row. A
 * Map of 1,000,000 strings held ~100 MB; this holds 5 bytes a slot (the row, and 8 bits of the
 * hash that spare nearly every other row's text being read back), at most 4 rows to 3 slots
 * (~6.7 MB for 1,000,000 rows), on resizable buffers given back at once by `release`
 * (packed/growable.ts), not when V8 next collects.
 */
export class FirstSeen {
  /** Row index + 1 per slot; 0 is an empty slot. */
  private slots: Int32Array;
  /** The low 8 bits of the hash of each slot's text. */
  private tags: Uint8Array;
  private count = 0;

  /** Made for `expected` rows at most, it never grows (no copy beside itself). */
  constructor(
    private readonly textOf: (index: number) => string,
    expected = 512,
  ) {
    [this.slots, this.tags] = tables(sizeFor(expected));
  }

  /** Gives the tables' memory back: the rows' firsts are known, nothing more is asked. */
  release(): void {
    release(this.slots, this.tags);
  }

  /** The first row whose text is `text`, or -1 when there was none (and `index` is now that row). */
  firstOrAdd(index: number, text: string): number {
    if ((this.count + 1) * 4 > this.slots.length * 3) this.grow();
    const hash = hashOf(text);
    const [size, tag] = [this.slots.length, hash & 0xff];
    for (let slot = slotOf(hash, size); ; slot = slot + 1 === size ? 0 : slot + 1) {
      const held = this.slots[slot]!;
      if (held === 0) {
        this.slots[slot] = index + 1;
        this.tags[slot] = tag;
        this.count++;
        return -1;
      }
      if (this.tags[slot] === tag && this.textOf(held - 1) === text) return held - 1;
    }
  }

  /** The first row whose text is `text`, or -1 when there is none (nothing is added). */
  find(text: string): number {
    const hash = hashOf(text);
    const [size, tag] = [this.slots.length, hash & 0xff];
    for (let slot = slotOf(hash, size); ; slot = slot + 1 === size ? 0 : slot + 1) {
      const held = this.slots[slot]!;
      if (held === 0) return -1;
      if (this.tags[slot] === tag && this.textOf(held - 1) === text) return held - 1;
    }
  }

  /** Twice the slots: each row's text is hashed again (the table keeps 8 bits of its hash, not where it goes). */
  private grow(): void {
    const [slots, tags] = [this.slots, this.tags];
    [this.slots, this.tags] = tables(slots.length * 2);
    const size = this.slots.length;
    for (let from = 0; from < slots.length; from++) {
      if (slots[from] === 0) continue;
      let slot = slotOf(hashOf(this.textOf(slots[from]! - 1)), size);
      while (this.slots[slot] !== 0) slot = slot + 1 === size ? 0 : slot + 1;
      this.slots[slot] = slots[from]!;
      this.tags[slot] = tags[from]!;
    }
    release(slots, tags);
  }
}

/** Slots for `expected` rows: 4 to 3, at least 1,024. */
const sizeFor = (expected: number) => Math.max(1024, Math.ceil((expected * 4) / 3) + 1);

/** Where a hash's probing starts, in a table of any size: its high bits scaled (no modulo, no power of two). */
const slotOf = (hash: number, size: number) => Math.floor((hash / 0x100000000) * size);

function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

function tables(size: number): [Int32Array, Uint8Array] {
  const [slots, tags] = [growable(Int32Array), growable(Uint8Array)];
  ensureLength(slots, size);
  ensureLength(tags, size);
  return [slots, tags];
}
