import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, onForm } from './loopback.js';

/**
 * A purpose-built gateway on 127.0.0.1 and a free port, for answers the sandbox never gives:
 * HTML content types, Longs beyond 2^53, 5xx, garbage, dropped connections, silence.
 * The handler sees each form after its whole body arrived; every form is recorded.
 */
export type FakeHandler = (form: URLSearchParams, request: IncomingMessage, response: ServerResponse) => void;

export interface FakeGateway {
  baseUrl: string;
  received: URLSearchParams[];
  close(): Promise<void>;
}

export async function startFakeGateway(handler: FakeHandler): Promise<FakeGateway> {
  const received: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    onForm(request, (form) => {
      received.push(form);
      handler(form, request, response);
    });
  });
  const listener = await listenOnLoopback(server);
  return { baseUrl: `http://127.0.0.1:${listener.port}`, received, close: listener.close };
}

/** A loopback URL where nothing listens: a port that was opened, then closed. */
export async function closedPortUrl(): Promise<string> {
  const { port, close } = await listenOnLoopback(createServer());
  await close();
  return `http://127.0.0.1:${port}`;
}

/** An envelope echoing the request's TransactionID, written as raw JSON so Longs stay exact. */
export function envelopeText(
  form: URLSearchParams,
  fields: { requestId?: string; status?: number; message?: string; content?: string } = {},
): string {
  const transactionId = form.get('TransactionID') ?? '0';
  return (
    `{"TransactinID":${transactionId},"RequestID":${fields.requestId ?? '9007199254740993'},` +
    `"ResponseType":${JSON.stringify(form.get('RequestType'))},"ResponseStatus":${fields.status ?? 10},` +
    `"Message":${JSON.stringify(fields.message ?? 'Успех')}` +
    (fields.content === undefined ? '' : `,"TransactionContent":${fields.content}`) +
    '}'
  );
}

/** Answers with this status and body: a string goes as UTF-8, bytes as they are (another charset). */
export function answer(
  response: ServerResponse,
  statusCode: number,
  body: string | Buffer,
  contentType = 'application/json; charset=utf-8',
): void {
  response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
