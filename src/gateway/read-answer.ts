/*
 * Reading an answer's body: whole, up to a size limit counted in bytes, decoded by the charset
 * its head declares (answer-charset.ts).
 */
import { decodeAnswer } from './answer-charset.js';

/**
 * The largest answer read, in bytes (1 MiB). A gateway envelope is a few hundred bytes and a
 * long voucher list a few kilobytes; anything bigger is not an answer we understand, and
 * reading it whole would let a broken gateway fill memory.
 */
export const maxAnswerBytes = 1024 * 1024;

/** How much of a body a failure keeps, for `--verbose` ("the first bytes of the answer"). */
export const answerSampleBytes = 200;

export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  readonly statusCode: number;
  readonly bodySample: string;
  constructor(maxBytes: number, statusCode: number, bodySample: string) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
    this.statusCode = statusCode;
    this.bodySample = bodySample;
  }
}

/** The first bytes of a body, decoded as the whole body would be (answer-charset.ts). */
export function sampleOf(chunks: readonly Buffer[], contentType: string | undefined): string {
  return decodeAnswer(Buffer.concat(chunks).subarray(0, answerSampleBytes), contentType);
}

/** What an answer's headers say that reading its body needs. */
export interface AnswerHead {
  statusCode: number;
  /** The Content-Type header, by whose charset the body is decoded (answer-charset.ts). */
  contentType: string | undefined;
}

/** The Content-Type as node:http (a string) or undici (a string, or several) gives it; the last counts, as in fetch. */
export function contentTypeOf(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header.at(-1) : header;
}

/** The readable side of an answer, as node:http and undici both give it. */
interface AnswerBody {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  destroy(): unknown;
  readonly destroyed: boolean;
}

/**
 * An answer's body as it arrives: its chunks kept up to maxBytes, counted in bytes before
 * decoding, then the text decoded by the charset its head declares (answer-charset.ts). What
 * arrived stays in `chunks` for a failure's sample. Both transports read bodies with it.
 */
export class BodyCollector {
  private size = 0;

  constructor(
    readonly head: AnswerHead,
    private readonly maxBytes: number,
    readonly chunks: Buffer[],
  ) {}

  /** Takes a chunk; the refusal once the body has grown past the limit. */
  add(chunk: Buffer): BodyTooLargeError | undefined {
    this.size += chunk.length;
    if (this.size <= this.maxBytes) {
      this.chunks.push(chunk);
      return undefined;
    }
    if (this.chunks.length === 0) this.chunks.push(chunk);
    return new BodyTooLargeError(this.maxBytes, this.head.statusCode, sampleOf(this.chunks, this.head.contentType));
  }

  /** The body whole: its bytes, and its text decoded by the charset its head declares. */
  answer(): { bytes: Buffer; text: string } {
    const bytes = Buffer.concat(this.chunks, this.size);
    return { bytes, text: decodeAnswer(bytes, this.head.contentType) };
  }
}

/**
 * The body of a readable answer (node:http's), its bytes and its text, refused past maxBytes (BodyCollector).
 * Events, not an async iterator: a batch reads thousands.
 */
export function readLimited(
  body: AnswerBody,
  head: AnswerHead,
  maxBytes: number,
  chunks: Buffer[],
): Promise<{ bytes: Buffer; text: string }> {
  return new Promise((resolve, reject) => {
    const collector = new BodyCollector(head, maxBytes, chunks);
    body.on('data', (chunk: Buffer) => {
      if (body.destroyed) return;
      const tooLarge = collector.add(chunk);
      if (tooLarge === undefined) return;
      body.destroy();
      reject(tooLarge);
    });
    body.once('end', () => resolve(collector.answer()));
    body.on('error', reject);
  });
}
