import type { FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import {
  HTTP_SSO_MESSAGES,
  HTTP_SSO_REALM,
  OIDC_MESSAGES,
  formatMessage,
  httpSsoSettingsSchema,
  type HttpSsoSettings,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, badRequest } from '../../core/errors.js';
import { getSetting } from '../../core/settings.store.js';
import { findUserByName, findUsersByFoldedName, reflectExternalUser } from '../identity/index.js';

export async function httpSsoSettings(db: Db): Promise<HttpSsoSettings> {
  return httpSsoSettingsSchema.parse(await getSetting(db, 'httpSso'));
}

/** An address or CIDR range, checked when saved. */
export function checkProxies(settings: HttpSsoSettings): void {
  if (settings.enabled && settings.trustedProxies.length === 0)
    throw badRequest(HTTP_SSO_MESSAGES.proxiesMissing, 'trustedProxies');
  for (const entry of settings.trustedProxies) {
    const valid = entry.includes('/') ? ipaddr.isValidCIDR(entry) : ipaddr.isValid(entry);
    if (!valid) throw badRequest(`'${entry}' is no IP address or CIDR range.`, 'trustedProxies');
  }
}

function trusted(address: string, proxies: readonly string[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return proxies.some((entry) => {
    if (!entry.includes('/')) {
      const other = ipaddr.parse(entry);
      return other.kind() === parsed.kind() && other.toNormalizedString() === parsed.toNormalizedString();
    }
    const [range, bits] = ipaddr.parseCIDR(entry);
    return range.kind() === parsed.kind() && parsed.match(range, bits);
  });
}

/**
 * The user a trusted reverse proxy names: only from a listed proxy address (the socket's own
 * peer, never a forwarded-for header), made with the realm `http-sso` when it is new.
 */
export async function httpSsoUser(request: FastifyRequest): Promise<UserRow> {
  const db = request.server.db;
  const settings = await httpSsoSettings(db);
  if (!settings.enabled) throw new HttpError(401, HTTP_SSO_MESSAGES.off);
  const peer = request.raw.socket.remoteAddress ?? '';
  if (!trusted(peer, settings.trustedProxies))
    throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.untrusted, { ip: peer }));
  const sent = request.headers[settings.header.toLowerCase()];
  const name = (Array.isArray(sent) ? sent[0] : sent)?.trim() ?? '';
  if (!name) throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.headerMissing, { header: settings.header }));
  const existing = await findUserByName(db, name);
  if (existing) {
    // the header proves only what the proxy checked: never a user of another realm (a local or
    // directory password), never one whose second factor the proxy cannot ask, never an
    // administrator unless the settings say so
    if (existing.realm !== HTTP_SSO_REALM)
      throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.otherRealm, { name }));
    if (existing.mfa_enrolled_at !== null)
      throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.secondFactor, { name }));
    if (existing.admin === 1 && !settings.allowAdministrators)
      throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.administrator, { name }));
    return existing;
  }
  if ((await findUsersByFoldedName(db, name)).length)
    throw new HttpError(401, formatMessage(HTTP_SSO_MESSAGES.otherRealm, { name }));
  if (!settings.autoCreateUser) throw new HttpError(401, OIDC_MESSAGES.noAutoCreate);
  return reflectExternalUser(
    db,
    { name, email: null, realm: HTTP_SSO_REALM, source: 'http-sso', governed: [], memberOf: [] },
    undefined,
  );
}
