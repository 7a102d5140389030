// A cassette: one exchange as --record keeps it and --replay serves it (docs/replay.md), the one definition of
// the format. The form without the password (spec 5); the answer's status, Content-Type and body in base64.
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

/** A cassette of an exchange; `redact` (secrets.ts) puts *** wherever the password stood. */
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

/** The largest cassette read: an answer's cap (gateway/read-answer.ts) as base64 beside its escaped text. */
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

// Whether non-JSON text is the start of some (empty, or cut inside a string or open brackets): a cassette a
// crash cut short reads so.
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

// A cassette file's text checked whole; the error names the file and what was expected, never quoting the text.
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
