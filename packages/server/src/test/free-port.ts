import fs from 'node:fs';
import net from 'node:net';

/** Where the ports this hands out start: above the well-known services, below the ephemeral range. */
const FIRST = 20_000;

/**
 * The first port of the kernel's ephemeral range: ports the kernel gives to `listen(0)` and to
 * outgoing connections, which a port handed out here must stay out of.
 */
function ephemeralStart(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FIRST + 1_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

const free = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/**
 * A loopback port nothing listens on now, for a server a test starts a moment later (often in
 * another process). It is drawn at random below the ephemeral range: a port the kernel handed out
 * with `listen(0)` is free again once probed, and under load another test's listener or outgoing
 * connection takes it before the intended server binds; ports below that range the kernel never
 * hands out, so only another test drawing the same number could collide.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralStart() - FIRST;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST + Math.floor(Math.random() * span);
    if (await free(port)) return port;
  }
  throw new Error('No free loopback port below the ephemeral range.');
}
