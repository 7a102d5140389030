import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

/**
 * A tiny forward proxy on 127.0.0.1 that counts what passes: absolute-URI requests for
 * http:// targets, CONNECT tunnels for https:// ones. It forwards to loopback only, and passes
 * a connection the gateway cut on as a cut connection, so a client sees through it what it
 * would see directly. Given `credentials` ('user:pass'), it answers 407 to any request or
 * CONNECT without them in Proxy-Authorization, as a proxy that wants a login does.
 */
export interface ForwardProxy {
  url: string;
  /** Absolute URIs it forwarded (http targets). */
  forwarded: string[];
  /** host:port of every CONNECT tunnel it opened (https targets). */
  tunnels: string[];
  /** Client connections to the proxy: accepted in all, open now, and the most open at once. */
  connections: { accepted: number; open: number; mostOpen: number };
  close(): Promise<void>;
}

const loopback = (host: string) => host === '127.0.0.1' || host.startsWith('127.0.0.1:');

export function startForwardProxy(credentials?: string): Promise<ForwardProxy> {
  const forwarded: string[] = [];
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const expected = credentials === undefined ? undefined : `Basic ${Buffer.from(credentials).toString('base64')}`;
  const refused = (headers: IncomingHttpHeaders) =>
    expected !== undefined && headers['proxy-authorization'] !== expected;
  const server: Server = createServer((request, response) => {
    if (refused(request.headers)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="proxy"' }).end('login first');
      return;
    }
    const target = new URL(request.url ?? '/');
    if (!loopback(target.host)) {
      response.writeHead(403).end('loopback only');
      return;
    }
    forwarded.push(target.href);
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.on('aborted', () => response.destroy());
        answer.on('error', () => response.destroy());
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  const connections = { accepted: 0, open: 0, mostOpen: 0 };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    connections.accepted++;
    connections.mostOpen = Math.max(connections.mostOpen, ++connections.open);
    socket.on('close', () => {
      sockets.delete(socket);
      connections.open--;
    });
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    const target = request.url ?? '';
    if (refused(request.headers)) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
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
        connections,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
