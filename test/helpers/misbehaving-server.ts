import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { stringify } from 'lossless-json';
import { answerRequest } from '../../src/sandbox/gateway-logic.js';
import { TransactionStore } from '../../src/sandbox/state.js';
import { listenOnLoopback } from './loopback.js';

/**
 * A purpose-built gateway on 127.0.0.1 that answers however a test says: error pages,
 * broken JSON, bodies that never end. It records every form it received, so a test can
 * assert that no Payment reached it.
 */
export type Responder = (form: URLSearchParams, response: ServerResponse, request: IncomingMessage) => void;

export interface ScriptedServer {
  baseUrl: string;
  received: URLSearchParams[];
  /** Responses whose connection was closed before they ended (the client gave up). */
  abandoned: number;
  close(): Promise<void>;
}

export async function startScriptedServer(
  respond: Responder,
  tls?: { key: string; cert: string },
): Promise<ScriptedServer> {
  const state: ScriptedServer = { baseUrl: '', received: [], abandoned: 0, close: async () => undefined };
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      state.received.push(form);
      response.on('close', () => {
        if (!response.writableFinished) state.abandoned++;
      });
      response.on('error', () => undefined);
      respond(form, response, request);
    });
  };
  const server = tls ? createHttpsServer(tls, handler) : createServer(handler);
  const listener = await listenOnLoopback(server);
  state.baseUrl = `${tls ? 'https' : 'http'}://127.0.0.1:${listener.port}`;
  state.close = listener.close;
  return state;
}

/** Answers with this status, content type and body. */
export function answerWith(statusCode: number, contentType: string, body: string): Responder {
  return (_form, response) => {
    response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    response.end(body);
  };
}

/** A well-formed envelope with this ResponseStatus, echoing the TransactionID (or another). */
export function envelopeAnswer(status: number, options: { message?: string; echoedId?: string } = {}): Responder {
  const message = options.message ?? 'm';
  return (form, response) => {
    const id = options.echoedId ?? form.get('TransactionID') ?? '0';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      `{"TransactinID":${id},"RequestID":9007199254740993,"ResponseType":"${form.get('RequestType')}","ResponseStatus":${status},"Message":${JSON.stringify(message)}}`,
    );
  };
}

/** The sandbox's own gateway logic behind any server (an https one, for instance). */
export function sandboxResponder(): Responder {
  const store = new TransactionStore();
  return (form, response) => {
    const body = stringify(answerRequest(form, store, { pendingPolls: 0, breaks: [] })) ?? '{}';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(body);
  };
}
