import type { ServerResponse } from 'node:http';

// Broken answers for testing a client (`agentpay sandbox --garbage`), each replacing the answer to a request
// already processed: a Payment answered with garbage was committed, so calling it "failed" is wrong.
export const garbageKinds = ['html500', 'badjson', 'shape', 'huge', 'slow'] as const;
export type GarbageKind = (typeof garbageKinds)[number];

/** A `huge` answer: well over agentpay's answer cap (maxAnswerBytes, gateway/http.ts). */
export const hugeAnswerBytes = 4 * 1024 * 1024;

/** How often a `slow` answer trickles out one more byte. It never ends. */
const slowTrickleIntervalMs = 50;

const errorPage = `<!DOCTYPE html>
<html><head><title>500 Internal Server Error</title></head>
<body><h1>Internal Server Error</h1><p>The server encountered an internal error and was unable to complete your request.</p>
<hr><address>nginx</address></body></html>
`;

function send(response: ServerResponse, statusCode: number, contentType: string, body: string): void {
  response.writeHead(statusCode, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Answers with garbage of this kind instead of `envelopeText`, the answer it would have sent. */
export function sendGarbage(kind: GarbageKind, response: ServerResponse, envelopeText: string): void {
  // A client that gives up half-way (size limit, deadline) closes the socket under us.
  response.on('error', () => undefined);
  switch (kind) {
    case 'html500':
      send(response, 500, 'text/html; charset=utf-8', errorPage);
      return;
    case 'badjson':
      // The real answer cut in half, as a proxy or a crash mid-write would leave it.
      send(
        response,
        200,
        'application/json; charset=utf-8',
        envelopeText.slice(0, Math.floor(envelopeText.length / 2)),
      );
      return;
    case 'shape':
      send(
        response,
        200,
        'application/json; charset=utf-8',
        '{"success":true,"data":{"items":[],"total":0},"error":null}',
      );
      return;
    case 'huge': {
      // A well-formed envelope, padded: only its size is wrong.
      const padding = 'x'.repeat(Math.max(0, hugeAnswerBytes - envelopeText.length));
      send(response, 200, 'application/json; charset=utf-8', `${envelopeText.slice(0, -1)},"Padding":"${padding}"}`);
      return;
    }
    case 'slow': {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.write(envelopeText.slice(0, 1));
      const timer = setInterval(() => response.write(' '), slowTrickleIntervalMs);
      response.once('close', () => clearInterval(timer));
      return;
    }
  }
}
