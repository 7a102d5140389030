/**
 * Typed arrays on resizable ArrayBuffers: they grow in place (no copy held beside the old
 * one while growing) and give their memory back at once when released, rather than when V8
 * next collects (docs/performance.md, "History and reconcile at scale").
 */
type Kind =
  | Uint8ArrayConstructor
  | Uint16ArrayConstructor
  | Uint32ArrayConstructor
  | Int32ArrayConstructor
  | Float64ArrayConstructor;
type Growable = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

interface ResizableBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}

/** An empty array of `Kind` that may grow up to 2^32 bytes (address space reserved, not memory). */
export function growable<K extends Kind>(Kind: K): InstanceType<K> {
  const buffer = new (
    ArrayBuffer as unknown as new (
      length: number,
      options: { maxByteLength: number },
    ) => ArrayBuffer
  )(0, { maxByteLength: 2 ** 32 });
  return new Kind(buffer) as InstanceType<K>;
}

/** Makes room for `length` items (by half again as many as it holds, at least). */
export function ensureLength(array: Growable, length: number): void {
  if (length <= array.length) return;
  const buffer = array.buffer as ResizableBuffer;
  buffer.resize(Math.min(2 ** 32, Math.max(length, Math.ceil(array.length * 1.5), 1024) * array.BYTES_PER_ELEMENT));
}

/** Gives the array's memory back; it is empty afterwards. */
export function release(...arrays: Growable[]): void {
  for (const array of arrays) (array.buffer as ResizableBuffer).resize(0);
}

/** A hash table's slots, `length` of them (a power of two), each -1: free. */
export function freeSlots(length: number): Int32Array {
  const slots = growable(Int32Array);
  ensureLength(slots, length);
  return slots.fill(-1);
}
