import { ensureLength, freeSlots, growable, release } from '../packed/growable.js';

/**
 * Where each transaction's latest record is in the sandbox's state file, found by its key
 * (owner and id) in 8 bytes a transaction and 4 a slot: by number, the record's offset (32
 * bits; 16 more once the file passes 4 GiB) and the key's 32-bit hash; the numbers in an
 * open-addressing table on that hash, filled up to three quarters. No key is kept: a
 * transaction whose hash is the key's is a candidate, confirmed by its record (`matches`,
 * which reads it), so two transactions are never confused, and a look-up of a new id reads
 * nothing from the file but for a hash collision (~1 in 4 billion a probe). Holding each id
 * besides (TransactionIndex), a paid bulk run against `--sandbox` kept ~36 bytes a payment in
 * the client's own process (~26 now).
 */
export class RecordPlaces {
  private readonly offsetLow = growable(Uint32Array);
  /** An offset's high 16 bits: allocated only once a record lies past 4 GiB (until then every one is 0). */
  private readonly offsetHigh = growable(Uint16Array);
  private readonly hashes = growable(Uint32Array);
  /** Each slot a transaction's number, or -1: free. */
  private slots = freeSlots(1024);
  size = 0;

  /** The number of the transaction keyed `key`, if it has a record (`matches(number)` tells whether it is the key's). */
  get(key: string, matches: (number: number) => boolean): number | undefined {
    const found = this.slots[this.find(hashOf(key), matches)]!;
    return found === -1 ? undefined : found;
  }

  /** The key's record is now at `offset`: a new transaction's, or a later record of one. */
  set(key: string, offset: number, matches: (number: number) => boolean): void {
    const hash = hashOf(key);
    const slot = this.find(hash, matches);
    let number = this.slots[slot]!;
    if (number === -1) {
      number = this.size++;
      for (const array of [this.offsetLow, this.hashes]) ensureLength(array, number + 1);
      this.hashes[number] = hash;
      this.slots[slot] = number;
      if (this.size * 4 > this.slots.length * 3) this.grow();
    }
    this.offsetLow[number] = offset % 2 ** 32;
    const high = Math.floor(offset / 2 ** 32);
    if (high === 0 && this.offsetHigh.length <= number) return;
    // Grown zeroed: the records before the first one past 4 GiB are all below it.
    ensureLength(this.offsetHigh, this.size);
    this.offsetHigh[number] = high;
  }

  offsetOf(number: number): number {
    return (this.offsetHigh[number] ?? 0) * 2 ** 32 + this.offsetLow[number]!;
  }

  /** The slot holding the transaction of this hash that `matches`, or the free slot where it would go. */
  private find(hash: number, matches: (number: number) => boolean): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const number = this.slots[slot]!;
      if (number === -1 || (this.hashes[number] === hash && matches(number))) return slot;
    }
  }

  /** Twice the slots, laid again from the hashes kept (no record is read). */
  private grow(): void {
    const length = this.slots.length * 2;
    release(this.slots);
    this.slots = freeSlots(length);
    const mask = this.slots.length - 1;
    for (let number = 0; number < this.size; number++) {
      let slot = this.hashes[number]! & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = number;
    }
  }
}

/** FNV-1a of the key's UTF-16 code units, its bits mixed (murmur3's finalizer) so that the low ones spread. */
function hashOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}
