import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundRefused, checkOutboundUrl, isBlockedAddress, outboundFetch } from './outbound.js';

describe('the outbound policy', () => {
  let server: http.Server;
  let port: number;
  let other: http.Server;
  let otherPort: number;
  beforeAll(async () => {
    other = http.createServer((_req, res) => res.end('secret on another port'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
    server = http.createServer((req, res) => {
      // a client that gave up closes the socket: late writes are dropped, not errors
      res.on('error', () => undefined);
      const write = (chunk: string, end = false) => {
        if (res.destroyed || res.writableEnded) return;
        if (end) res.end(chunk);
        else res.write(chunk);
      };
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/` });
        return res.end();
      }
      if (req.url === '/metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      }
      if (req.url === '/slow-but-flowing') {
        // 1.2 s in all, never more than 100 ms between chunks
        res.writeHead(200);
        let n = 0;
        const timer = setInterval(() => {
          write('x');
          if (++n === 12) {
            clearInterval(timer);
            write('', true);
          }
        }, 100);
        return;
      }
      if (req.url === '/stalls') {
        res.writeHead(200);
        write('x');
        setTimeout(() => write('y', true), 1500);
        return;
      }
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    other.closeAllConnections();
    await new Promise((r) => server.close(r));
    await new Promise((r) => other.close(r));
  });

  it('knows loopback, link-local and unspecified addresses in both families', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '0.0.0.0',
      '::ffff:127.0.0.1',
    ])
      expect(isBlockedAddress(address), address).toBe(true);
    for (const address of ['10.0.0.1', '192.168.1.20', '172.16.0.5', '93.184.216.34', '2001:db8::1'])
      expect(isBlockedAddress(address), address).toBe(false);
  });

  it('refuses cloud metadata and this host unless the allow-list names them', () => {
    expect(() => checkOutboundUrl('http://169.254.169.254/latest/', [])).toThrow(OutboundRefused);
    expect(() => checkOutboundUrl('http://localhost:8081/', [])).toThrow(OutboundRefused);
    expect(() => checkOutboundUrl('http://[::1]/', [])).toThrow(OutboundRefused);
    expect(() => checkOutboundUrl('file:///etc/passwd', ['localhost'])).toThrow(OutboundRefused);
    expect(checkOutboundUrl('http://localhost:8081/', ['localhost:8081']).host).toBe('localhost:8081');
    expect(() => checkOutboundUrl('http://localhost:8082/', ['localhost:8081'])).toThrow(OutboundRefused);
    // private ranges stay allowed: internal mirrors are normal
    expect(checkOutboundUrl('http://10.1.2.3/', []).hostname).toBe('10.1.2.3');
  });

  it('checks every redirect: an allowed host cannot bounce a request to a blocked one', async () => {
    const allowed = [`127.0.0.1:${port}`];
    expect(await (await outboundFetch(`http://127.0.0.1:${port}/`, { allowed })).text()).toBe('ok');
    await expect(outboundFetch(`http://127.0.0.1:${port}/redirect`, { allowed })).rejects.toThrow(OutboundRefused);
    await expect(outboundFetch(`http://127.0.0.1:${port}/metadata`, { allowed })).rejects.toThrow(OutboundRefused);
    // with the other port allowed too, the redirect is followed
    const both = [...allowed, `127.0.0.1:${otherPort}`];
    expect(await (await outboundFetch(`http://127.0.0.1:${port}/redirect`, { allowed: both })).text()).toBe(
      'secret on another port',
    );
  });

  it('lets a long download run while it flows, and ends one that stalls', async () => {
    const timeouts = { connectMs: 1000, firstByteMs: 500, idleMs: 500 };
    const allowed = ['127.0.0.1'];
    const flowing = await outboundFetch(`http://127.0.0.1:${port}/slow-but-flowing`, { allowed, timeouts });
    expect(await flowing.text()).toBe('x'.repeat(12));
    const stalled = await outboundFetch(`http://127.0.0.1:${port}/stalls`, { allowed, timeouts });
    await expect(stalled.text()).rejects.toThrow();
  });
});
