import { createHash } from 'node:crypto';
import dns from 'node:dns';
import { rootCertificates } from 'node:tls';
import net from 'node:net';
import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';
import {
  Agent,
  ProxyAgent,
  fetch as undiciFetch,
  request as undiciRequest,
  type Dispatcher,
  type Response,
} from 'undici';

/** Why an outbound request was not made. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** Ranges no outbound request reaches unless allowed by name: this host and cloud metadata services. */
const BLOCKED_RANGES = new Set(['loopback', 'linkLocal', 'unspecified']);

/** True for loopback, link-local (169.254.0.0/16, fe80::/10, metadata services) and unspecified addresses. */
export function isBlockedAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return BLOCKED_RANGES.has(parsed.range());
}

/** Timeouts of one outbound request: none of them bounds a long download that keeps flowing. */
export interface OutboundTimeouts {
  /** To open the connection. */
  connectMs: number;
  /** From the request to the response headers. */
  firstByteMs: number;
  /** Longest pause between two chunks of the body. */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: OutboundTimeouts = { connectMs: 10_000, firstByteMs: 30_000, idleMs: 60_000 };

const MAX_REDIRECTS = 5;

/** A DNS lookup that refuses blocked addresses: the check applies to the address actually connected to. */
function guardedLookup(
  hostname: string,
  options: dns.LookupOptions,
  callback: (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as dns.LookupAddress[];
    const blocked = list.find((a) => isBlockedAddress(a.address));
    if (blocked) {
      return callback(
        new OutboundRefused(`'${hostname}' resolves to ${blocked.address}, which outbound requests may not reach.`),
        '',
      );
    }
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}

const agents = new Map<string, Agent>();

/**
 * TLS of an outbound request: certificate authorities trusted besides the system's, and a client
 * certificate to present (a remote repository whose upstream asks for one).
 */
export interface OutboundTls {
  /** PEM certificates trusted in addition to Node's bundled roots. */
  ca?: readonly string[];
  /** PEM client certificate (with its chain) and its private key. */
  cert?: string;
  key?: string;
}

/** TLS options for undici's connector: the added authorities extend the roots, never replace them. */
function tlsOptions(tls: OutboundTls | undefined): { ca?: string[]; cert?: string; key?: string } {
  if (!tls) return {};
  return {
    ...(tls.ca?.length ? { ca: [...rootCertificates, ...tls.ca] } : {}),
    ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
  };
}

const tlsKey = (tls: OutboundTls | undefined) =>
  tls
    ? createHash('sha256')
        .update(JSON.stringify([tls.ca ?? [], tls.cert ?? '', tls.key ?? '']))
        .digest('hex')
    : '';

function agentFor(guarded: boolean, timeouts: OutboundTimeouts, tls?: OutboundTls): Agent {
  const key = `${guarded}:${timeouts.connectMs}:${timeouts.firstByteMs}:${timeouts.idleMs}:${tlsKey(tls)}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { timeout: timeouts.connectMs, ...(guarded ? { lookup: guardedLookup } : {}), ...tlsOptions(tls) },
      headersTimeout: timeouts.firstByteMs,
      bodyTimeout: timeouts.idleMs,
    });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * An HTTP proxy an outbound request goes through (a CONNECT tunnel for https and http alike).
 * Plain data, so that it crosses into the webhooks' posting thread.
 */
export interface OutboundProxy {
  host: string;
  port: number;
  username: string;
  password: string;
  /** Hosts a redirect may lead to with the proxy's credentials still sent. */
  redirectToHosts: readonly string[];
}

const proxyAgents = new Map<string, ProxyAgent>();

/** The proxy's agent, with or without its credentials. */
function proxyAgentFor(
  proxy: OutboundProxy,
  withCredentials: boolean,
  timeouts: OutboundTimeouts,
  tls?: OutboundTls,
): ProxyAgent {
  const token =
    withCredentials && proxy.username
      ? `Basic ${Buffer.from(`${proxy.username}:${proxy.password}`).toString('base64')}`
      : undefined;
  const key = JSON.stringify([proxy.host, proxy.port, token ?? '', timeouts, tlsKey(tls)]);
  let agent = proxyAgents.get(key);
  if (!agent) {
    agent = new ProxyAgent({
      uri: `http://${proxy.host.includes(':') ? `[${proxy.host}]` : proxy.host}:${proxy.port}`,
      ...(token ? { token } : {}),
      proxyTls: { timeout: timeouts.connectMs },
      requestTls: { timeout: timeouts.connectMs, ...tlsOptions(tls) },
      headersTimeout: timeouts.firstByteMs,
      bodyTimeout: timeouts.idleMs,
    });
    proxyAgents.set(key, agent);
  }
  return agent;
}

/**
 * Through a proxy the proxy resolves the target's name, so it is resolved here first and a
 * blocked address refused as a direct request would be.
 */
export async function checkOutboundHost(url: URL, allowed: readonly string[]): Promise<void> {
  if (allowedByName(url, allowed)) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [{ address: host }] : await dns.promises.lookup(host, { all: true });
  const blocked = addresses.find((a) => isBlockedAddress(a.address));
  if (blocked) {
    throw new OutboundRefused(`'${host}' resolves to ${blocked.address}, which outbound requests may not reach.`);
  }
}

/** The dispatcher of one hop: direct, or through the proxy (credentials to the first host and the listed ones). */
async function dispatcherFor(
  url: URL,
  first: URL,
  request: OutboundRequest,
  timeouts: OutboundTimeouts,
): Promise<Dispatcher> {
  const { proxy } = request;
  // a client certificate is presented to the first origin only; the trusted authorities apply to every hop
  const tls = url.origin === first.origin ? request.tls : request.tls?.ca ? { ca: request.tls.ca } : undefined;
  if (!proxy) return agentFor(!allowedByName(url, request.allowed), timeouts, tls);
  await checkOutboundHost(url, request.allowed);
  const host = url.hostname.toLowerCase();
  const credentials =
    host === first.hostname.toLowerCase() || proxy.redirectToHosts.some((h) => h.toLowerCase() === host);
  return proxyAgentFor(proxy, credentials, timeouts, tls);
}

/** `host:port` of a URL, with the scheme's default port. */
function hostAndPort(url: URL): { host: string; port: string } {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return { host, port: url.port || (url.protocol === 'https:' ? '443' : '80') };
}

/** Whether the allow-list names this URL's host (any port) or host:port. */
export function allowedByName(url: URL, allowed: readonly string[]): boolean {
  const { host, port } = hostAndPort(url);
  return allowed.some((entry) => {
    const e = entry
      .trim()
      .toLowerCase()
      .replace(/^\[|\]$/g, '');
    return e === host || e === `${host}:${port}` || e === `[${host}]:${port}`;
  });
}

/**
 * Checks what can be checked before connecting: the scheme, and a literal address in the URL.
 * Names are checked when they are resolved (see `outboundFetch`). Throws `OutboundRefused`.
 */
export function checkOutboundUrl(raw: string, allowed: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(`'${raw}' is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundRefused(`Outbound requests use http or https, not '${url.protocol.replace(':', '')}'.`);
  }
  const { host } = hostAndPort(url);
  if (!allowedByName(url, allowed)) {
    if (net.isIP(host) && isBlockedAddress(host)) {
      throw new OutboundRefused(`${host} is a loopback or link-local address, which outbound requests may not reach.`);
    }
    if (host === 'localhost' || host.endsWith('.localhost')) {
      throw new OutboundRefused(`'${host}' is this host, which outbound requests may not reach.`);
    }
  }
  return url;
}

export interface OutboundRequest {
  headers?: Record<string, string>;
  method?: string;
  /** A stream is sent as it is read (an upload of a stored file); it cannot follow a redirect. */
  body?: string | Uint8Array | Readable;
  /** `host[:port]` entries that may be reached although loopback or link-local. */
  allowed: readonly string[];
  timeouts?: OutboundTimeouts;
  signal?: AbortSignal;
  /** The HTTP proxy to go through; none for a direct connection. */
  proxy?: OutboundProxy;
  /** Authorities trusted besides the system's, and a client certificate to present. */
  tls?: OutboundTls;
}

/**
 * The one way Arca makes an HTTP request to somewhere else (remote repositories, webhooks):
 * never to loopback or link-local addresses unless the allow-list names the host — checked on
 * the resolved address and again on every redirect — with connect, first-byte and idle timeouts
 * instead of one for the whole transfer. Credentials are not sent on to another origin.
 */
export async function outboundFetch(raw: string, request: OutboundRequest): Promise<Response> {
  const timeouts = request.timeouts ?? DEFAULT_TIMEOUTS;
  let url = checkOutboundUrl(raw, request.allowed);
  const first = url;
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    const dispatcher = await dispatcherFor(url, first, request, timeouts);
    const sameOrigin = url.origin === origin;
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).filter(([name]) => sameOrigin || name.toLowerCase() !== 'authorization'),
    );
    let response: Response;
    try {
      response = await undiciFetch(url, {
        method: request.method ?? 'GET',
        headers,
        ...(request.body instanceof Readable
          ? { body: request.body, duplex: 'half' as const }
          : request.body !== undefined
            ? { body: request.body }
            : {}),
        redirect: 'manual',
        dispatcher,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof OutboundRefused) throw cause;
      throw error;
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`More than ${MAX_REDIRECTS} redirects from ${raw}.`);
    url = checkOutboundUrl(new URL(location, url).toString(), request.allowed);
  }
}

/** A small answer read whole: status, headers and body text. */
export interface OutboundAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The same policy as `outboundFetch` (allow-list, address checked on resolution and on every
 * redirect, timeouts, credentials kept to the first origin) on undici's lighter request call, for
 * a small request whose answer is read whole (a webhook's POST): no streams, no Response object.
 */
export async function outboundRequest(raw: string, request: OutboundRequest): Promise<OutboundAnswer> {
  const timeouts = request.timeouts ?? DEFAULT_TIMEOUTS;
  let url = checkOutboundUrl(raw, request.allowed);
  const first = url;
  const origin = url.origin;
  for (let hop = 0; ; hop++) {
    const dispatcher = await dispatcherFor(url, first, request, timeouts);
    const sameOrigin = url.origin === origin;
    const headers = Object.fromEntries(
      Object.entries(request.headers ?? {}).filter(([name]) => sameOrigin || name.toLowerCase() !== 'authorization'),
    );
    let answer: Dispatcher.ResponseData;
    try {
      answer = await undiciRequest(url, {
        method: (request.method ?? 'GET') as Dispatcher.HttpMethod,
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        dispatcher,
        ...(request.signal ? { signal: request.signal } : {}),
      });
    } catch (error) {
      const cause = (error as { cause?: unknown }).cause;
      if (error instanceof OutboundRefused) throw error;
      if (cause instanceof OutboundRefused) throw cause;
      throw error;
    }
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
    const location = flat.location;
    if (answer.statusCode < 300 || answer.statusCode >= 400 || !location) {
      return { status: answer.statusCode, headers: flat, body: await answer.body.text() };
    }
    await answer.body.dump().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`More than ${MAX_REDIRECTS} redirects from ${raw}.`);
    url = checkOutboundUrl(new URL(location, url).toString(), request.allowed);
  }
}
