/*
 * A cassette: one exchange with a gateway as --record keeps it and `--replay` serves it
 * (docs/replay.md). The request's form without the password (spec 5: no other field is derived
 * from it), and the answer as it arrived: its HTTP status, its Content-Type (the charset its
 * bytes are in) and its body's bytes, in base64 so that a windows-1251 body survives JSON.
 * This file is the format's one definition: what writes cassettes builds them here, what
 * reads them checks them here.
 */
import type { FormField } from './form.js';

const cassetteFormat = 'agentpay-cassette/1';

/** The field no cassette holds: the password, plain or as its MD5 (spec 5). */
const passwordField = 'AgentPassword';

export interface Cassette {
  format: typeof cassetteFormat;
  /** The request's fields in the order they were sent, AgentPassword left out. */
  request: Record<string, string>;
  answer: {
    status: number;
    /** The headers that decide how the body reads: its Content-Type, with its charset. */
    headers: { 'content-type'?: string };
    /** The body's bytes exactly as they arrived, in base64. */
    body: string;
    /** The body as agentpay read it, for a person reviewing the file; replay never reads it. */
    text: string;
    /** Set when the answer repeated the password: the text is kept in UTF-8 with *** in its place. */
    redacted?: true;
  };
}

/** What a cassette is built from: the form as sent and the answer as it arrived. */
export interface RecordedExchange {
  form: readonly FormField[];
  status: number;
  contentType: string | undefined;
  bytes: Uint8Array;
  text: string;
}

/**
 * A cassette of an exchange. `redact` blanks the password in every spelling (secrets.ts): a
 * field or an answer that holds it is kept with *** in its place, never as it was.
 */
export function cassetteOf(exchange: RecordedExchange, redact: (text: string) => string): Cassette {
  const request: Record<string, string> = {};
  for (const [name, value] of exchange.form) if (name !== passwordField) request[name] = redact(value);
  const text = redact(exchange.text);
  const repeated = text !== exchange.text;
  const contentType = repeated ? 'application/json; charset=utf-8' : exchange.contentType;
  return {
    format: cassetteFormat,
    request,
    answer: {
      status: exchange.status,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      body: (repeated ? Buffer.from(text, 'utf8') : Buffer.from(exchange.bytes)).toString('base64'),
      text,
      ...(repeated ? { redacted: true as const } : {}),
    },
  };
}

/** A name a person can read, safe in any file system: `0007-Payment-101.json`. */
export function cassetteFileName(sequence: number, request: Readonly<Record<string, string>>): string {
  const type = safeNamePart(request.RequestType ?? 'Unknown');
  const service = request.Service === undefined ? '' : `-${safeNamePart(request.Service)}`;
  return `${String(sequence).padStart(4, '0')}-${type}${service}.json`;
}

/** The sequence number a cassette's file name starts with; undefined for another file. */
export function sequenceOf(fileName: string): number | undefined {
  const match = /^(\d{1,9})-[\w-]*\.json$/.exec(fileName);
  return match ? Number(match[1]) : undefined;
}

function safeNamePart(text: string): string {
  return text.replace(/[^\w-]/g, '_').slice(0, 40) || '_';
}

/**
 * The largest cassette read, in bytes (8 MiB): an answer is at most 1 MiB (gateway/read-answer.ts),
 * kept as base64 (4/3 of it) beside its text, whose JSON escapes take at most 6 bytes a character.
 */
export const cassetteBytesAtMost = 8 * 1024 * 1024;

export class CassetteError extends Error {
  /** A file cut short while written (empty, or its JSON ends early): skipped by a replay, not refused. */
  readonly cutShort: boolean;
  constructor(file: string, what: string, options: { cutShort?: boolean } = {}) {
    super(`${file}: ${what}`);
    this.name = 'CassetteError';
    this.cutShort = options.cutShort ?? false;
  }
}

/**
 * Whether text that is not JSON is the start of some: empty, or it ends inside a string or with
 * brackets left open, and never closes one it did not open. A cassette a crash cut short reads so.
 */
function endsEarly(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth < 0) return false;
  }
  return text.trim() === '' || inString || depth > 0;
}

/**
 * A cassette file's text checked whole; the error names the file and what was expected, and
 * never quotes the text (a file that is not a cassette may be anything).
 */
export function parseCassette(text: string, file: string): Cassette {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (endsEarly(text)) throw new CassetteError(file, 'empty, or its JSON ends early', { cutShort: true });
    throw new CassetteError(file, 'not JSON: expected a cassette, a JSON object');
  }
  const fail = (what: string): never => {
    throw new CassetteError(file, what);
  };
  if (!isRecord(parsed)) return fail('expected an object');
  if (parsed.format !== cassetteFormat) fail(`format: expected "${cassetteFormat}"`);
  const { request, answer } = parsed;
  if (!isRecord(request) || !Object.values(request).every((value) => typeof value === 'string'))
    fail('request: expected an object of text fields');
  if (typeof (request as Record<string, unknown>).RequestType !== 'string') fail('request.RequestType: missing');
  if (!isRecord(answer)) return fail('answer: expected an object');
  const { status, headers, body } = answer;
  // 1xx is never a final answer: served, it would leave the client waiting for one.
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599)
    fail('answer.status: expected the HTTP status code of a final answer (200 to 599)');
  if (!isRecord(headers)) return fail('answer.headers: expected an object');
  const contentType = headers['content-type'];
  if (contentType !== undefined && typeof contentType !== 'string') fail('answer.headers.content-type: expected text');
  // What an HTTP header value may hold (RFC 9110 5.5): a line break or control would fail the replay's answer.
  if (typeof contentType === 'string' && !/^[\t\x20-\x7e]*$/.test(contentType))
    fail('answer.headers.content-type: expected text an HTTP header can carry');
  if (typeof body !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(body)) fail('answer.body: expected base64');
  return parsed as unknown as Cassette;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
