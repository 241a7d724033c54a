import type { Db } from '../db/database.js';
import { outboundTls } from './certificates.js';
import { OutboundRefused, checkOutboundHost, outboundFetch, type OutboundRequest } from './outbound.js';
import { outboundProxy } from './proxies.js';
import { allowedOutboundHosts } from './settings.store.js';

/** `ARCA_OUTBOUND_ALLOWED_HOSTS` of the app a database belongs to (set once when the app is built). */
const configuredHosts = new WeakMap<Db, readonly string[]>();

export function useConfiguredOutboundHosts(db: Db, hosts: readonly string[]): void {
  configuredHosts.set(db, hosts);
}

/** The hosts outbound requests may reach although loopback or link-local: configured and set by administrators. */
export function outboundAllowed(db: Db): Promise<string[]> {
  return allowedOutboundHosts(db, configuredHosts.get(db) ?? []);
}

/**
 * A request to an address an administrator configured (an identity provider's metadata or
 * discovery document, a licence URL): the outbound policy (no loopback or link-local address
 * unless allowed, checked after resolution and on every redirect), the default proxy and the
 * trusted authorities, as remote repositories and webhooks have them.
 */
export async function policyFetch(
  db: Db,
  url: string,
  request: Omit<OutboundRequest, 'allowed' | 'proxy' | 'tls'> = {},
): Promise<Response> {
  const [allowed, proxy, tls] = await Promise.all([outboundAllowed(db), outboundProxy(db, ''), outboundTls(db)]);
  return outboundFetch(url, { ...request, allowed, ...(proxy ? { proxy } : {}), ...(tls ? { tls } : {}) });
}

/**
 * Refuses a connection that is no HTTP request (an LDAP directory) to a host the outbound policy
 * forbids: its name resolved, every address checked. Throws `OutboundRefused`.
 */
export async function checkPolicyHost(db: Db, url: URL): Promise<void> {
  await checkOutboundHost(url, await outboundAllowed(db));
}

export { OutboundRefused };
