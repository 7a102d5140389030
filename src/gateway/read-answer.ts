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
 * The body as text, decoded by the charset its head declares (answer-charset.ts); refused
 * past maxBytes, counted in bytes before decoding. What arrived is left in `chunks` for a
 * failure's sample. Events, not an async iterator: a batch reads thousands.
 */
export function readLimited(body: AnswerBody, head: AnswerHead, maxBytes: number, chunks: Buffer[]): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (body.destroyed) return;
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else {
        if (chunks.length === 0) chunks.push(chunk);
        body.destroy();
        reject(new BodyTooLargeError(maxBytes, head.statusCode, sampleOf(chunks, head.contentType)));
      }
    });
    body.once('end', () => resolve(decodeAnswer(Buffer.concat(chunks, size), head.contentType)));
    body.on('error', reject);
  });
}
