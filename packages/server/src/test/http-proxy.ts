import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** What a test proxy saw: each tunnel asked for, with the credentials it came with. */
export interface ProxiedRequest {
  target: string;
  authorization: string | undefined;
}

/**
 * An HTTP proxy as companies run them, for tests: CONNECT tunnels only (what undici's proxy agent
 * asks for, for http and https alike), Basic credentials required when `credentials` is given
 * (407 otherwise). Records every tunnel asked for.
 */
export async function startHttpProxy(credentials?: { username: string; password: string }) {
  const requests: ProxiedRequest[] = [];
  const expected = credentials
    ? `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`
    : undefined;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_request, response) => response.writeHead(405).end());
  server.on('connect', (request: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const authorization = request.headers['proxy-authorization'];
    requests.push({ target: request.url ?? '', authorization });
    if (expected && authorization !== expected) {
      client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
      return;
    }
    const [host, port] = (request.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
