import { ensureLength, growable } from '../packed/growable.js';

/**
 * Texts read back only in the order they were written (a registry's accounts, listed for the
 * rows no payment matched), as UTF-8 in one growing byte array, each as the count of bytes it
 * shares with the text before and the rest (as held-payments.ts holds a journal's fields): a
 * registry's rows run in order, and neighbours' accounts often differ in their last digits only.
 */
export class PrefixedTexts {
  private readonly bytes = growable(Uint8Array);
  private end = 0;
  private last = Buffer.alloc(64);
  private lastLength = 0;
  private next = Buffer.alloc(64);

  add(text: string): void {
    const length = this.encode(text);
    const [last, next] = [this.last, this.next];
    const most = Math.min(length, this.lastLength);
    let shared = 0;
    while (shared < most && next[shared] === last[shared]) shared++;
    if (this.end + 10 + length - shared > this.bytes.length) ensureLength(this.bytes, this.end + 10 + length - shared);
    this.writeLength(shared);
    this.writeLength(length - shared);
    const { bytes } = this;
    let at = this.end;
    for (let i = shared; i < length; i++) bytes[at++] = next[i]!;
    this.end = at;
    [this.last, this.next, this.lastLength] = [next, last, length];
  }

  /** A reader from the first text on: each call gives the next one, as a string only when `wanted`. */
  reader(): (wanted: boolean) => string {
    const view = Buffer.from(this.bytes.buffer, 0, this.end);
    let [cursor, text, length] = [0, Buffer.alloc(64), 0];
    const readLength = () => {
      let [value, scale, byte] = [0, 1, 0x80];
      while (byte & 0x80) {
        byte = view[cursor++]!;
        value += (byte & 0x7f) * scale;
        scale *= 0x80;
      }
      return value;
    };
    return (wanted) => {
      const shared = readLength();
      const rest = readLength();
      if (shared + rest > text.length) text = Buffer.concat([text.subarray(0, shared)], 2 * (shared + rest));
      view.copy(text, shared, cursor, cursor + rest);
      cursor += rest;
      length = shared + rest;
      return wanted ? text.toString('utf8', 0, length) : '';
    };
  }

  /** The text's UTF-8 into `next`; its length. ASCII byte by byte: no view made of the bytes for it. */
  private encode(text: string): number {
    if (3 * text.length > this.next.length) this.next = Buffer.alloc(6 * text.length);
    const { next } = this;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) return next.write(text, 'utf8');
      next[i] = code;
    }
    return text.length;
  }

  private writeLength(length: number): void {
    let rest = length;
    while (rest >= 0x80) {
      this.bytes[this.end++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.end++] = rest;
  }
}
