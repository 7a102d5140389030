import type { IncomingMessage, Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/** A test server listening on 127.0.0.1 on a free port, and a close that does not wait for idle keep-alive sockets. */
export interface LoopbackListener {
  port: number;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server | HttpsServer): Promise<LoopbackListener> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The whole form body of a request, once it has arrived. */
export function onForm(request: IncomingMessage, handle: (form: URLSearchParams) => void): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => handle(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
}
