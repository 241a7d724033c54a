import net from 'node:net';

/**
 * A TCP proxy in front of a local port that counts the bytes passing each way (`up`: to the
 * target), for tests and benchmarks that prove what travels on the wire. `down()` cuts every
 * connection and refuses new ones, as a target that went away (`downAfter(bytes)`: once that much
 * more has passed); `up()` lets them through again.
 */
export async function startCountingProxy(targetPort: number) {
  const counted = { up: 0, down: 0 };
  const sockets = new Set<net.Socket>();
  let refusing = false;
  /** Bytes to the target after which the proxy goes down by itself (a target lost mid-transfer). */
  let cutAt = Infinity;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    client.on('data', (d: Buffer) => {
      counted.up += d.length;
      if (counted.up >= cutAt) {
        cutAt = Infinity;
        refusing = true;
        cut();
      }
    });
    upstream.on('data', (d: Buffer) => (counted.down += d.length));
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    counted,
    reset: () => Object.assign(counted, { up: 0, down: 0 }),
    down: () => {
      refusing = true;
      cut();
    },
    up: () => {
      refusing = false;
    },
    /** Goes down once `bytes` more have passed to the target. */
    downAfter: (bytes: number) => {
      cutAt = counted.up + bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        // the source keeps its connections alive: they end with the proxy
        cut();
        server.close(() => resolve());
      }),
  };
}
