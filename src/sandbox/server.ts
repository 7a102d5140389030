import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringifyLosslessJson } from '../protocol/lossless.js';
import { type GarbageKind, sendGarbage } from './garbage.js';
import { answerRequest, type SandboxBehaviour } from './gateway-logic.js';
import type { Replay, ReplayedAnswer } from './replay.js';
import { TransactionStore } from './state.js';

// Faults for tests and QA, applied after the request was processed (a Payment is committed first), so each
// leaves a payment whose answer was lost. Garbage comes first, then the Payment-only faults.
interface SandboxFaults {
  /** Wait this long before answering each request. */
  latencyMs: number;
  /** The next n Payment answers are dropped: the connection is cut instead. */
  dropAfterCommit: number;
  /** Chance (0..1) that a committed Payment is answered with HTTP 500. */
  failRate: number;
  /** Every request, once processed, is answered with this kind of broken answer (garbage.ts). */
  garbage?: GarbageKind | undefined;
}

export interface SandboxOptions {
  host?: string;
  port?: number;
  /** Keep state in this SQLite file (shared by processes); in memory when absent. */
  statePath?: string;
  behaviour?: Partial<SandboxBehaviour>;
  faults?: Partial<SandboxFaults>;
  /** Keep every received form in `received` (tests); off for long runs. */
  recordRequests?: boolean;
  /** Answer with these recordings (--replay); the sandbox answers only what they lack, and only with their fallback. */
  replay?: Replay | undefined;
}

export interface RunningSandbox {
  baseUrl: string;
  store: TransactionStore;
  /** Every form the sandbox received, in order, for tests. */
  received: URLSearchParams[];
  /** Live: a test may change them while the sandbox runs. */
  faults: SandboxFaults;
  close(): Promise<void>;
}

const maxRequestBytes = 64 * 1024;

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxRequestBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(response: ServerResponse, statusCode: number, contentType: string, body: string): void {
  response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** A recorded answer: its status, its Content-Type as recorded (none if it had none), its bytes. */
function sendReplayed(response: ServerResponse, answer: ReplayedAnswer): void {
  response.writeHead(answer.status, {
    ...(answer.contentType === undefined ? {} : { 'content-type': answer.contentType }),
    'content-length': answer.bytes.length,
  });
  response.end(answer.bytes);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const store = new TransactionStore(options.statePath);
  const behaviour: SandboxBehaviour = { pendingPolls: 0, breaks: [], ...options.behaviour };
  const received: URLSearchParams[] = [];
  const faults: SandboxFaults = {
    latencyMs: 0,
    dropAfterCommit: 0,
    failRate: 0,
    garbage: undefined,
    ...options.faults,
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST' || new URL(request.url ?? '/', 'http://sandbox').pathname !== '/home/index') {
        send(response, 404, 'text/plain; charset=utf-8', 'Not found: the gateway answers POST /home/index\n');
        return;
      }
      const body = await readBody(request);
      if (body === undefined) {
        send(response, 413, 'text/plain; charset=utf-8', 'Request too large\n');
        return;
      }
      const form = new URLSearchParams(body);
      if (options.recordRequests) received.push(form);
      const { replay } = options;
      const replayed = replay?.answer(form);
      if (replay && (replayed || !replay.fallback)) {
        if (faults.latencyMs > 0) await sleep(faults.latencyMs);
        if (replayed) sendReplayed(response, replayed);
        else send(response, 404, 'text/plain; charset=utf-8', replay.refusal(form));
        return;
      }
      const answer = answerRequest(form, store, behaviour);
      if (faults.latencyMs > 0) await sleep(faults.latencyMs);
      if (faults.garbage !== undefined) {
        sendGarbage(faults.garbage, response, stringifyLosslessJson(answer));
        return;
      }
      if (form.get('RequestType') === 'Payment') {
        if (faults.dropAfterCommit > 0) {
          faults.dropAfterCommit--;
          request.socket.destroy();
          return;
        }
        if (faults.failRate > 0 && Math.random() < faults.failRate) {
          send(
            response,
            500,
            'text/html; charset=utf-8',
            '<html><body><h1>500 Internal Server Error</h1></body></html>\n',
          );
          return;
        }
      }
      send(response, 200, 'application/json; charset=utf-8', stringifyLosslessJson(answer));
    })().catch((error: unknown) => {
      if (!response.headersSent)
        send(response, 500, 'text/plain; charset=utf-8', `Sandbox error: ${(error as Error).message}\n`);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${host}:${address.port}`,
    store,
    received,
    faults,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
