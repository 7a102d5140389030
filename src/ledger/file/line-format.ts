import { gatewayIdentity } from '../../protocol/gateway-identity.js';
import type { TransactionState } from '../../protocol/transaction-view.js';
import {
  type IntentRecord,
  intentFields,
  type JournalRecord,
  type OutcomeRecord,
  outcomeFields,
  ownLinePattern,
  readRecord,
} from '../record-format.js';

/**
 * Reading the journal's own lines fast. The writer always writes a record's keys in the order
 * of its format table (record-format.ts lineOf). A reader recognises such a line with the
 * pattern compiled from that same table and reads what it needs from it without JSON.parse or
 * even decoding it (OwnLineScanner): the pattern admits only strings with nothing to unescape
 * and the values the table allows, so a line that matches is a valid record whose fields are
 * plain slices of it (the gateway read as its identity, as readRecord reads it). Any other
 * line, from another writer or with an escaped character, is parsed and checked by readRecord
 * (reader.ts).
 *
 * Lines come to the scanner as "byte text": the file's bytes read as latin1, one character per
 * byte. UTF-8 never puts an ASCII byte inside a multi-byte character, so the quotes,
 * backslashes, control characters and line breaks looked for are found exactly, on compact
 * one-byte strings; only what is kept is decoded as UTF-8 (utf8OfByteText).
 */

/** Byte text (latin1) back to the UTF-8 text it holds. */
export function utf8OfByteText(bytes: string): string {
  return /[^\x00-\x7f]/.test(bytes) ? Buffer.from(bytes, 'latin1').toString('utf8') : bytes;
}

const intentPrefix = '{"kind":"intent","transactionId":"';
const outcomePrefix = '{"kind":"outcome","transactionId":"';
const ownIntent = ownLinePattern(intentFields);
const ownOutcome = ownLinePattern(outcomeFields);

/**
 * What the ledger decides on, before (and mostly instead of) reading the whole record.
 * A transaction is known by its owner key (records.ts ownerKey), held here in two parts so
 * that no key string is built per line: `owner`, all of the key before its last space, and
 * `id`, the rest (the TransactionID itself, unless that holds a space). `content` is the
 * line as byte text, or the record when readRecord has read it already.
 */
export type ScannedRecord =
  | { kind: 'intent'; owner: string; id: string; content: string | IntentRecord }
  | { kind: 'outcome'; owner: string; id: string; state: TransactionState; content: string | OutcomeRecord };

/** Scans lines of the journal's own format, in byte text; undefined for any other line. */
export class OwnLineScanner {
  // The last owner seen, and its text in a line (`<gateway>","agentId":"<agentId>"`): a
  // journal of one gateway and agent yields one owner string, not one per line.
  private lastOwnerBytes = '';
  private lastOwner = '';

  scan(line: string): ScannedRecord | undefined {
    if (line.startsWith(intentPrefix)) {
      if (!ownIntent.test(line)) return undefined;
      const start = intentPrefix.length;
      const idEnd = line.indexOf('"', start);
      const owner = this.ownerAt(line, idEnd + '","gateway":"'.length);
      return keyed({ kind: 'intent', owner, id: utf8OfByteText(line.slice(start, idEnd)), content: line });
    }
    if (line.startsWith(outcomePrefix)) {
      if (!ownOutcome.test(line)) return undefined;
      const start = outcomePrefix.length;
      const idEnd = line.indexOf('"', start);
      const owner = this.ownerAt(line, idEnd + '","gateway":"'.length);
      const stateStart = line.indexOf('"state":"', idEnd) + '"state":"'.length;
      const state = line.slice(stateStart, line.indexOf('"', stateStart)) as TransactionState;
      return keyed({ kind: 'outcome', owner, id: utf8OfByteText(line.slice(start, idEnd)), state, content: line });
    }
    return undefined;
  }

  /** `<gateway> <agentId>` of an own line whose gateway starts at `start`. */
  private ownerAt(line: string, start: number): string {
    if (this.lastOwnerBytes === '' || !line.startsWith(this.lastOwnerBytes, start)) {
      const gatewayEnd = line.indexOf('"', start);
      const agentIdStart = gatewayEnd + '","agentId":"'.length;
      const agentIdEnd = line.indexOf('"', agentIdStart);
      // Up to and with the closing quote: no string here holds one, so a match is the same owner.
      this.lastOwnerBytes = line.slice(start, agentIdEnd + 1);
      const gateway = gatewayIdentity(utf8OfByteText(line.slice(start, gatewayEnd)));
      this.lastOwner = `${gateway} ${utf8OfByteText(line.slice(agentIdStart, agentIdEnd))}`;
    }
    return this.lastOwner;
  }
}

/** Moves any space of the id into the owner: the key splits at its last space. */
function keyed<T extends ScannedRecord>(record: T): T {
  const space = record.id.lastIndexOf(' ');
  if (space !== -1) {
    record.owner = `${record.owner} ${record.id.slice(0, space)}`;
    record.id = record.id.slice(space + 1);
  }
  return record;
}

/** A record already read by readRecord, scanned the same way. */
export function scanRecord(record: JournalRecord): ScannedRecord {
  const owner = `${record.gateway} ${record.agentId}`;
  return keyed<ScannedRecord>(
    record.kind === 'intent'
      ? { kind: 'intent', owner, id: record.transactionId, content: record }
      : { kind: 'outcome', owner, id: record.transactionId, state: record.view.state, content: record },
  );
}

/** When an intent was written. */
export function intentTime(scanned: Extract<ScannedRecord, { kind: 'intent' }>): string {
  const { content } = scanned;
  // `"at":"` can only be the key: no string in an own line holds a quote.
  return typeof content === 'string'
    ? utf8OfByteText(content.slice(content.lastIndexOf('"at":"') + 6, -2))
    : content.at;
}

/** The gateway an intent was paid through. */
export function intentGateway(scanned: Extract<ScannedRecord, { kind: 'intent' }>): string {
  const { content } = scanned;
  if (typeof content !== 'string') return content.gateway;
  // The fourth string of an own intent line: kind, transactionId, gateway (format table order).
  const start = content.indexOf('"gateway":"') + '"gateway":"'.length;
  return gatewayIdentity(utf8OfByteText(content.slice(start, content.indexOf('"', start))));
}

// ---------------------------------------------------------------- before a line is a string

const intentStartBytes = Buffer.from(intentPrefix, 'latin1');
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const atBytes = Buffer.from('"at":"', 'latin1');

/** Whether the bytes from `start` to `end` begin with `prefix`. */
export function bytesStartWith(bytes: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start >= prefix.length && bytes.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

/**
 * What a reader can tell of an intent line from its bytes, before it becomes a string: when it
 * was written (`at`, as toISOString wrote it) and a string field, as byte text. Undefined when
 * the line is not plainly one of the writer's own intents in that respect (another writer's
 * key order, an escape in the value, a time in another form, a damaged line): such a line is
 * read whole. Within a valid line `"account":"` can only be that key, since a quote inside a
 * value is always escaped.
 */
export const intentBytes = {
  time(bytes: Buffer, start: number, end: number): string | undefined {
    if (!bytesStartWith(bytes, start, end, intentStartBytes)) return undefined;
    const at = end - 2 - 24 - atBytes.length;
    if (
      at < start ||
      bytes[end - 1] !== 0x7d ||
      bytes[end - 2] !== 0x22 ||
      bytes.compare(atBytes, 0, atBytes.length, at, at + atBytes.length) !== 0
    )
      return undefined;
    const time = bytes.toString('latin1', at + atBytes.length, end - 2);
    return isoTime.test(time) ? time : undefined;
  },
  text(bytes: Buffer, start: number, end: number, key: 'account' | 'operator'): string | undefined {
    if (!bytesStartWith(bytes, start, end, intentStartBytes)) return undefined;
    const marker = key === 'account' ? accountMarker : operatorMarker;
    const at = bytes.indexOf(marker, start);
    if (at === -1 || at >= end) return undefined;
    const from = at + marker.length;
    const to = bytes.indexOf(0x22, from);
    if (to === -1 || to >= end) return undefined;
    const backslash = bytes.indexOf(0x5c, from);
    if (backslash !== -1 && backslash < to) return undefined;
    return bytes.toString('latin1', from, to);
  },
};
const accountMarker = Buffer.from('"account":"', 'latin1');
const operatorMarker = Buffer.from('"operator":"', 'latin1');

/**
 * A string field of an intent (`account`, `operator`), or undefined when it has none: what a
 * reader filters on before reading the whole record.
 */
export function intentText(
  scanned: Extract<ScannedRecord, { kind: 'intent' }>,
  key: 'account' | 'operator',
): string | undefined {
  const { content } = scanned;
  if (typeof content !== 'string') return content[key];
  // An own intent is flat and none of its strings holds a quote: `"account":"` can only be the key.
  const marker = `"${key}":"`;
  const at = content.indexOf(marker);
  if (at === -1) return undefined;
  const start = at + marker.length;
  return utf8OfByteText(content.slice(start, content.indexOf('"', start)));
}

/**
 * The whole record, as readRecord gives it (its keys in table order, none other). A string
 * content is an own line, already proven a valid record by OwnLineScanner.
 */
export function recordOf<T extends ScannedRecord>(scanned: T): Exclude<T['content'], string>;
export function recordOf(scanned: ScannedRecord): JournalRecord {
  const { content } = scanned;
  return typeof content === 'string' ? readRecord(JSON.parse(utf8OfByteText(content))) : content;
}
