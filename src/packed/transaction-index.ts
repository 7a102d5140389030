import { ensureLength, freeSlots, growable, release } from './growable.js';

/**
 * Transactions numbered in the order they were first added, found again by owner and id
 * (line-format.ts ScannedRecord), in ~20 bytes each, where a Map of id strings takes several
 * times that (docs/performance.md, "History and reconcile at scale"). An id of
 * up to 20 decimal digits (a TransactionID is a Long) is kept as 10 bytes of packed decimal,
 * padded on the left with 0xF nibbles, so "12" and "012" differ; any other id is kept whole
 * in a map. Ids are compared whole, never by hash alone, so two transactions are never
 * confused; the table is open addressing on a 32-bit FNV-1a hash.
 */
const idBytes = 10;
/** The packed form of an id kept whole in `otherIds` (no packed decimal is all 0xEE). */
const otherIdMark = 0xee;

export class TransactionIndex {
  private readonly owners = new Map<string, number>();
  private readonly otherIds = new Map<number, string>();
  private readonly ids = growable(Uint8Array);
  /**
   * Each transaction's owner, by number: allocated only once a second owner is added (a
   * registry has one, and a journal mostly one); until then every owner is 0.
   */
  private readonly ownerOf = growable(Uint16Array);
  private manyOwners = false;
  private slots = freeSlots(2048);
  private readonly packed = new Uint8Array(idBytes);
  private readonly digits = Buffer.alloc(2 * idBytes);
  size = 0;

  /** The number of this transaction, if it was added. */
  get(owner: string, id: string): number | undefined {
    const ownerNumber = this.owners.get(owner);
    if (ownerNumber === undefined) return undefined;
    this.pack(id);
    const found = this.slots[this.find(ownerNumber, id)]!;
    return found === -1 ? undefined : found;
  }

  /** Adds a transaction not yet added; its number is the count before. */
  add(owner: string, id: string): number {
    const ownerNumber = this.ownerNumber(owner);
    const other = this.pack(id);
    return this.insert(ownerNumber, id, other, this.find(ownerNumber, id));
  }

  /**
   * The number of this transaction, added first if it was not (then it is the count before,
   * and `size` grew): one look-up where get and add would take two.
   */
  numberOf(owner: string, id: string): number {
    const ownerNumber = this.ownerNumber(owner);
    const other = this.pack(id);
    const slot = this.find(ownerNumber, id);
    const found = this.slots[slot]!;
    return found === -1 ? this.insert(ownerNumber, id, other, slot) : found;
  }

  private ownerNumber(owner: string): number {
    let ownerNumber = this.owners.get(owner);
    if (ownerNumber === undefined) this.owners.set(owner, (ownerNumber = this.owners.size));
    // Held in 16 bits: owners are a few gateways and agents (an id with spaces adds some).
    if (ownerNumber > 0xffff)
      throw new Error(`more than 65,536 owners (gateway and agent) in one journal: beyond what history indexes`);
    return ownerNumber;
  }

  /** Adds the transaction packed into `packed` at its empty `slot`. */
  private insert(ownerNumber: number, id: string, other: boolean, slot: number): number {
    const number = this.size++;
    ensureLength(this.ids, (number + 1) * idBytes);
    this.ids.set(this.packed, number * idBytes);
    if (ownerNumber !== 0 || this.manyOwners) {
      // Grown zeroed: the transactions before the second owner's first are all owner 0's.
      ensureLength(this.ownerOf, number + 1);
      this.ownerOf[number] = ownerNumber;
      this.manyOwners = true;
    }
    if (other) this.otherIds.set(number, id);
    this.slots[slot] = number;
    if (this.size * 2 > this.slots.length) this.rehash();
    return number;
  }

  /** The id into `packed`; true when it is not decimal digits (kept whole instead). */
  private pack(id: string): boolean {
    const packed = this.packed;
    if (id.length > 2 * idBytes) return this.packOther();
    packed.fill(0xff);
    for (let i = id.length - 1, nibble = 0; i >= 0; i--, nibble++) {
      const byte = idBytes - 1 - (nibble >> 1);
      const digit = id.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return this.packOther();
      packed[byte] = nibble & 1 ? (packed[byte]! & 0x0f) | (digit << 4) : (packed[byte]! & 0xf0) | digit;
    }
    return false;
  }

  private packOther(): true {
    this.packed.fill(otherIdMark);
    return true;
  }

  /** The slot holding this owner's id (packed into `packed`), or the empty slot where it would go. */
  private find(owner: number, id: string): number {
    const mask = this.slots.length - 1;
    let slot = hashOf(this.packed, 0, owner, this.packed[0] === otherIdMark ? id : undefined) & mask;
    for (;;) {
      const number = this.slots[slot]!;
      if (number === -1 || (this.ownerAt(number) === owner && this.sameId(number, id))) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private sameId(number: number, id: string): boolean {
    const start = number * idBytes;
    for (let i = 0; i < idBytes; i++) if (this.ids[start + i] !== this.packed[i]) return false;
    return this.packed[0] !== otherIdMark || this.otherIds.get(number) === id;
  }

  /** The id of transaction `number`, as it was added. */
  idOf(number: number): string {
    const start = number * idBytes;
    if (this.ids[start] === otherIdMark) return this.otherIds.get(number)!;
    // Its digits into a scratch buffer, then one flat string: built up a digit at a time, an id
    // was a chain of some twenty strings until first read, and kept them all alive meanwhile.
    const digits = this.digits;
    let length = 0;
    for (let i = start; i < start + idBytes; i++) {
      const byte = this.ids[i]!;
      if (byte >> 4 !== 0xf) digits[length++] = 48 + (byte >> 4);
      if ((byte & 0xf) !== 0xf) digits[length++] = 48 + (byte & 0xf);
    }
    return digits.toString('latin1', 0, length);
  }

  /** Whether transaction `number` is this owner's id (no hashing: a guess checked). */
  is(number: number, owner: string, id: string): boolean {
    if (number >= this.size || this.ownerAt(number) !== this.owners.get(owner)) return false;
    this.pack(id);
    return this.sameId(number, id);
  }

  private ownerAt(number: number): number {
    return this.manyOwners ? this.ownerOf[number]! : 0;
  }

  /** Gives the memory back: the index is empty and unusable afterwards. */
  release(): void {
    release(this.ids, this.ownerOf, this.slots);
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = freeSlots(old.length * 2);
    release(old);
    const mask = this.slots.length - 1;
    for (let number = 0; number < this.size; number++) {
      let slot = hashOf(this.ids, number * idBytes, this.ownerAt(number), this.otherIds.get(number)) & mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & mask;
      this.slots[slot] = number;
    }
  }
}

/** FNV-1a of the owner and the packed id (or, for an id kept whole, of its text). */
function hashOf(bytes: Uint8Array, start: number, owner: number, other: string | undefined): number {
  let hash = Math.imul(0x811c9dc5 ^ owner, 0x01000193);
  if (other !== undefined) {
    for (let i = 0; i < other.length; i++) hash = Math.imul(hash ^ other.charCodeAt(i), 0x01000193);
    return hash >>> 0;
  }
  for (let i = start; i < start + idBytes; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash >>> 0;
}
