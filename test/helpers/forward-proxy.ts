import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

/**
 * A tiny forward proxy on 127.0.0.1 that counts what passes: absolute-URI requests for
 * http:// targets, CONNECT tunnels for https:// ones. It forwards to loopback only.
 */
export interface ForwardProxy {
  url: string;
  /** Absolute URIs it forwarded (http targets). */
  forwarded: string[];
  /** host:port of every CONNECT tunnel it opened (https targets). */
  tunnels: string[];
  close(): Promise<void>;
}

const loopback = (host: string) => host === '127.0.0.1' || host.startsWith('127.0.0.1:');

export function startForwardProxy(): Promise<ForwardProxy> {
  const forwarded: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    const target = new URL(request.url ?? '/');
    if (!loopback(target.host)) {
      response.writeHead(403).end('loopback only');
      return;
    }
    forwarded.push(target.href);
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end('bad gateway'));
    request.pipe(upstream);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    if (!loopback(target)) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    tunnels.push(target);
    const [host, port] = target.split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        forwarded,
        tunnels,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
