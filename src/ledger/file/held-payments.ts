import { ensureLength, growable, release } from '../../packed/growable.js';
import type { TransactionState } from '../../protocol/transaction-view.js';
import type { PaymentRow } from '../ledger.js';
import type { ScannedRecord } from './line-format.js';

type ScannedIntent = Extract<ScannedRecord, { kind: 'intent' }>;

/** A payment's fields, in the order they are held. */
const fieldCount = 4;
const [idField, accountField, amountField, atField] = [0, 1, 2, 3];

/**
 * The payments journalPayments shows, held from its pass over the journal until they are
 * given, outside the V8 heap and with no JavaScript string a payment (a string a payment cost
 * more than the payment, and made the collector's work grow with the journal): in the order of
 * their first intent, in one growing byte array, each as its transaction's number (from the
 * last one's, 7 bits a byte) and its TransactionID, account, amount and time as UTF-8. A field
 * is held as the count of bytes it shares with the same field of the payment before and the
 * rest: a journal's payments run in order, so their ids and times mostly differ in the last
 * few digits only.
 */
export class HeldPayments {
  private readonly bytes = growable(Uint8Array);
  private end = 0;
  private count = 0;
  /** Where the next field is read from, while the payments are given. */
  private cursor = 0;
  private lastNumber = 0;
  /** Each field's bytes as last written (or read), and how many. */
  private readonly last = Array.from({ length: fieldCount }, () => Buffer.alloc(64));
  private readonly lastLength = new Uint32Array(fieldCount);
  /** Each field's text as last read. */
  private readonly lastText: string[] = Array.from({ length: fieldCount }, () => '');

  /** The next payment shown: transaction `number`, of this first intent written at `at`. */
  add(number: number, record: ScannedIntent, at: string): void {
    this.count++;
    if (this.end + 10 > this.bytes.length) ensureLength(this.bytes, this.end + 10);
    const step = number - this.lastNumber;
    this.writeLength(step >= 0 ? 2 * step : -2 * step - 1);
    this.lastNumber = number;
    const { content } = record;
    if (typeof content !== 'string') {
      for (const [field, text] of [content.transactionId, content.account, content.amount].entries())
        this.write(field, text);
    } else {
      // An own line (line-format.ts) is byte text, the file's UTF-8 one byte a character, and
      // none of its strings holds a quote: `"account":"` can only be the key. The account and
      // amount come after the TransactionID, gateway, agent and service (the format table's order).
      const idEnd = content.indexOf('"', intentStart);
      const accountStart = content.indexOf(accountKey, idEnd) + accountKey.length;
      const accountEnd = content.indexOf('"', accountStart);
      const amountStart = content.indexOf(amountKey, accountEnd) + amountKey.length;
      this.writeByteText(idField, content, intentStart, idEnd);
      this.writeByteText(accountField, content, accountStart, accountEnd);
      this.writeByteText(amountField, content, amountStart, content.indexOf('"', amountStart));
    }
    this.write(atField, at);
  }

  /** The payments held, in batches of `size`, each with its latest state. */
  *batches(size: number, stateOf: (number: number) => TransactionState): Generator<PaymentRow[]> {
    const view = Buffer.from(this.bytes.buffer, 0, this.end);
    [this.cursor, this.lastNumber] = [0, 0];
    this.lastLength.fill(0);
    let batch: PaymentRow[] = [];
    for (let shown = 0; shown < this.count; shown++) {
      const step = this.readLength(view);
      this.lastNumber += step % 2 === 0 ? step / 2 : -(step + 1) / 2;
      const transactionId = this.read(view, idField);
      const account = this.read(view, accountField);
      const amount = this.read(view, amountField);
      batch.push({ transactionId, account, amount, at: this.read(view, atField), state: stateOf(this.lastNumber) });
      if (batch.length === size) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  /** Gives the memory back: nothing is held afterwards. */
  release(): void {
    release(this.bytes);
    [this.end, this.count] = [0, 0];
  }

  /** Byte text (one byte a character) from `start` to `end`, as field `field`, compared and copied in one go. */
  private writeByteText(field: number, text: string, start: number, end: number): void {
    const length = end - start;
    const last = this.lastWithRoom(field, length);
    const most = Math.min(length, this.lastLength[field]!);
    let shared = 0;
    while (shared < most && text.charCodeAt(start + shared) === last[shared]) shared++;
    this.writeLengths(shared, length);
    const { bytes } = this;
    let at = this.end;
    for (let i = shared; i < length; i++) bytes[at++] = last[i] = text.charCodeAt(start + i);
    [this.end, this.lastLength[field]] = [at, length];
  }

  /** A string as UTF-8, as field `field`: ASCII as byte text, anything else encoded first. */
  private write(field: number, text: string): void {
    for (let i = 0; i < text.length; i++)
      if (text.charCodeAt(i) >= 0x80) return this.writeEncoded(field, Buffer.from(text, 'utf8'));
    this.writeByteText(field, text, 0, text.length);
  }

  private writeEncoded(field: number, encoded: Buffer): void {
    const last = this.lastWithRoom(field, encoded.length);
    const most = Math.min(encoded.length, this.lastLength[field]!);
    let shared = 0;
    while (shared < most && encoded[shared] === last[shared]) shared++;
    this.writeLengths(shared, encoded.length);
    this.bytes.set(encoded.subarray(shared), this.end);
    this.end += encoded.length - shared;
    encoded.copy(last, shared, shared);
    this.lastLength[field] = encoded.length;
  }

  /** The count of bytes shared with the last field and of the rest, with room made for the rest. */
  private writeLengths(shared: number, length: number): void {
    if (this.end + 10 + length - shared > this.bytes.length) ensureLength(this.bytes, this.end + 10 + length - shared);
    this.writeLength(shared);
    this.writeLength(length - shared);
  }

  /** Field `field`'s last bytes, in a buffer of at least `length` (the ones it had kept). */
  private lastWithRoom(field: number, length: number): Buffer {
    const last = this.last[field]!;
    if (length <= last.length) return last;
    const larger = Buffer.alloc(2 * length);
    last.copy(larger, 0, 0, this.lastLength[field]);
    this.last[field] = larger;
    return larger;
  }

  /** Field `field` read: the bytes it shares with the last one and the rest, as text (the last one's when the same). */
  private read(view: Buffer, field: number): string {
    const shared = this.readLength(view);
    const rest = this.readLength(view);
    if (rest === 0 && shared === this.lastLength[field]) return this.lastText[field]!;
    const last = this.lastWithRoom(field, shared + rest);
    for (let i = 0; i < rest; i++) last[shared + i] = view[this.cursor + i]!;
    this.cursor += rest;
    this.lastLength[field] = shared + rest;
    return (this.lastText[field] = last.toString('utf8', 0, shared + rest));
  }

  private writeLength(length: number): void {
    let rest = length;
    while (rest >= 0x80) {
      this.bytes[this.end++] = (rest % 0x80) | 0x80;
      rest = Math.floor(rest / 0x80);
    }
    this.bytes[this.end++] = rest;
  }

  private readLength(view: Buffer): number {
    let [length, scale, byte] = [0, 1, 0x80];
    while (byte & 0x80) {
      byte = view[this.cursor++]!;
      length += (byte & 0x7f) * scale;
      scale *= 0x80;
    }
    return length;
  }
}

const intentStart = '{"kind":"intent","transactionId":"'.length;
const accountKey = '"account":"';
const amountKey = '"amount":"';
