// An answer's body: read whole, up to a size limit counted in bytes, decoded by the charset its head declares
// (answer-charset.ts).
import { decodeAnswer } from './answer-charset.js';

/** The largest answer read, in bytes: far above any envelope or voucher list a gateway sends (spec 2);
 * anything bigger is not an answer we understand, and reading it whole would let a broken gateway fill memory. */
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

/** The readable side of an answer (node:http's IncomingMessage). */
interface AnswerBody {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  destroy(): unknown;
  readonly destroyed: boolean;
}

/** The body of an answer (node:http's), its bytes counted before decoding and kept in `chunks`
 * (a failure's sample), then its text decoded by its charset (answer-charset.ts); refused past
 * maxBytes. Events, not an async iterator: a batch reads thousands. */
export function readLimited(
  body: AnswerBody,
  head: AnswerHead,
  maxBytes: number,
  chunks: Buffer[],
): Promise<{ bytes: Buffer; text: string }> {
  return new Promise((resolve, reject) => {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      if (body.destroyed) return;
      size += chunk.length;
      if (size <= maxBytes || chunks.length === 0) chunks.push(chunk);
      if (size <= maxBytes) return;
      body.destroy();
      reject(new BodyTooLargeError(maxBytes, head.statusCode, sampleOf(chunks, head.contentType)));
    });
    body.once('end', () => {
      const bytes = Buffer.concat(chunks, size);
      resolve({ bytes, text: decodeAnswer(bytes, head.contentType) });
    });
    body.on('error', reject);
  });
}
