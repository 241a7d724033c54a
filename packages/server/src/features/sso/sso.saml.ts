import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { XMLParser } from 'fast-xml-parser';
import {
  OIDC_MESSAGES,
  SAML_MESSAGES,
  SAML_REALM,
  formatMessage,
  samlProviderBodySchema,
  type SamlProvider,
  type SamlProviderBody,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { CONSOLE_API_PREFIX } from '../../core/console.plugin.js';
import { policyFetch } from '../../core/outbound-policy.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { getSetting, putSetting, type StoredSamlProvider } from '../../core/settings.store.js';
import { findUserByName, reflectExternalUser } from '../identity/index.js';
import { certificateOf } from '../keys/index.js';
import { mappingOf, safeRedirect } from './sso.oidc.js';

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
/** How long an authentication request waits for its response. */
const REQUEST_MS = 10 * 60_000;

/** Arca's side of one identity provider: entity ID, assertion consumer service, metadata. */
export function serviceProviderOf(baseUrl: string, name: string) {
  const base = `${baseUrl.replace(/\/+$/, '')}${CONSOLE_API_PREFIX}/auth/saml`;
  const id = encodeURIComponent(name);
  return { spEntityId: `${base}/metadata/${id}`, acsUrl: `${base}/acs/${id}`, spMetadataUrl: `${base}/metadata/${id}` };
}

const answerOf = ({ certificates, updatedAt: _u, ...rest }: StoredSamlProvider, baseUrl: string): SamlProvider => ({
  ...rest,
  certificates: certificates.length,
  ...serviceProviderOf(baseUrl, rest.name),
});

async function stored(db: Db): Promise<StoredSamlProvider[]> {
  return getSetting(db, 'saml.providers');
}

export async function listSamlProviders(db: Db, baseUrl: string): Promise<SamlProvider[]> {
  return (await stored(db)).map((p) => answerOf(p, baseUrl));
}

export async function findSamlProvider(db: Db, name: string): Promise<StoredSamlProvider> {
  const found = (await stored(db)).find((p) => p.name === name);
  if (!found) throw notFound(formatMessage(SAML_MESSAGES.notFound, { name }));
  return found;
}

const asList = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && '#text' in value
      ? String(value['#text'])
      : '';

/** What an identity provider's metadata says: its entity ID, where to sign in and out, its signing certificates. */
export function readIdpMetadata(xml: string): {
  idpEntityId: string;
  ssoUrl: string;
  logoutUrl: string;
  certificates: string[];
} {
  let document: Record<string, unknown>;
  try {
    document = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true }).parse(
      xml,
    ) as Record<string, unknown>;
  } catch (error) {
    throw badRequest(formatMessage(SAML_MESSAGES.metadataUnreadable, { reason: (error as Error).message }));
  }
  type Node = Record<string, unknown>;
  const entity = (document.EntityDescriptor ??
    asList((document.EntitiesDescriptor as Node | undefined)?.EntityDescriptor)[0]) as Node | undefined;
  const idp = asList(entity?.IDPSSODescriptor as Node | Node[])[0];
  if (!entity || !idp) {
    throw badRequest(formatMessage(SAML_MESSAGES.metadataUnreadable, { reason: 'no IDPSSODescriptor in it.' }));
  }
  const location = (services: unknown) =>
    String(asList(services as Node | Node[]).find((s) => s['@Binding'] === REDIRECT_BINDING)?.['@Location'] ?? '');
  const certificates = asList(idp.KeyDescriptor as Node | Node[])
    .filter((k) => !k['@use'] || k['@use'] === 'signing')
    .flatMap((k) =>
      asList(((k.KeyInfo as Node | undefined)?.X509Data as Node | undefined)?.X509Certificate).map((c) =>
        textOf(c).replace(/\s+/g, ''),
      ),
    )
    .filter(Boolean);
  const answer = {
    idpEntityId: String(entity['@entityID'] ?? ''),
    ssoUrl: location(idp.SingleSignOnService),
    logoutUrl: location(idp.SingleLogoutService),
    certificates,
  };
  if (!answer.ssoUrl || !certificates.length) throw badRequest(SAML_MESSAGES.metadataIncomplete);
  return answer;
}

async function fetchMetadata(db: Db, url: string): Promise<string> {
  try {
    // an administrator's URL goes where remote repositories may go: never this host or link-local
    const response = await policyFetch(db, url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the server answered ${response.status}.`);
    return await response.text();
  } catch (error) {
    throw badRequest(formatMessage(SAML_MESSAGES.metadataUnreadable, { reason: (error as Error).message }));
  }
}

export async function saveSamlProvider(
  request: FastifyRequest,
  body: SamlProviderBody,
  baseUrl: string,
  replaces?: string,
): Promise<SamlProvider> {
  const db = request.server.db;
  const parsed = samlProviderBodySchema.parse(body);
  await mappingOf(db, parsed.groupMapping);
  const all = await stored(db);
  const before = replaces === undefined ? undefined : all.find((p) => p.name === replaces);
  if (replaces !== undefined && !before) throw notFound(formatMessage(SAML_MESSAGES.notFound, { name: replaces }));
  const taken =
    all.some((p) => p.name === parsed.name && p.name !== replaces) ||
    (await getSetting(db, 'oidc.providers')).some((p) => p.name === parsed.name);
  if (taken) throw conflict(formatMessage(SAML_MESSAGES.nameTaken, { name: parsed.name }), 'name');
  if (!parsed.metadataUrl && !parsed.metadataXml.trim()) throw badRequest(SAML_MESSAGES.metadataMissing, 'metadataXml');
  const xml = parsed.metadataUrl ? await fetchMetadata(request.server.db, parsed.metadataUrl) : parsed.metadataXml;
  // the key that is to sign the requests exists and is an RSA key
  await signingOf(db, parsed);
  const next: StoredSamlProvider = {
    ...parsed,
    metadataXml: xml,
    ...readIdpMetadata(xml),
    updatedAt: Date.now(),
  };
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'saml.providers', before ? all.map((p) => (p.name === replaces ? next : p)) : [...all, next]);
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: before ? 'update' : 'create',
        target: `saml identity provider ${parsed.name}`,
        after: { idpEntityId: next.idpEntityId, ssoUrl: next.ssoUrl },
      },
    });
  });
  return answerOf(next, baseUrl);
}

export async function deleteSamlProvider(request: FastifyRequest, name: string): Promise<void> {
  const db = request.server.db;
  const all = await stored(db);
  if (!all.some((p) => p.name === name)) throw notFound(formatMessage(SAML_MESSAGES.notFound, { name }));
  await db.transaction().execute(async (trx) => {
    await putSetting(
      trx,
      'saml.providers',
      all.filter((p) => p.name !== name),
    );
    const settings = await getSetting(trx, 'sso');
    if (settings.autoRedirectProvider === name) await putSetting(trx, 'sso', { ...settings, autoRedirectProvider: '' });
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'delete', target: `saml identity provider ${name}` },
    });
  });
}

/**
 * The IDs of the authentication requests sent, kept in the database (any node may take the
 * response), each removed when its response is taken: a response replayed finds nothing.
 */
function requestCache(db: Db, provider: string): CacheProvider {
  const key = (id: string) => createHash('sha256').update(`saml:${id}`).digest('hex');
  return {
    async saveAsync(id, value) {
      const now = Date.now();
      await db.deleteFrom('sso_requests').where('expires_at', '<', now).execute();
      await db
        .insertInto('sso_requests')
        .values({ state_hash: key(id), provider, data: value, expires_at: now + REQUEST_MS })
        .execute();
      return { value, createdAt: now };
    },
    async getAsync(id) {
      const row = await db
        .selectFrom('sso_requests')
        .select('data')
        .where('state_hash', '=', key(id))
        .where('expires_at', '>', Date.now())
        .executeTakeFirst();
      return row?.data ?? null;
    },
    async removeAsync(id) {
      if (!id) return null;
      const row = await db
        .deleteFrom('sso_requests')
        .where('state_hash', '=', key(id))
        .returning('data')
        .executeTakeFirst();
      return row?.data ?? null;
    },
  };
}

/** The key that signs a provider's authentication requests, with its certificate for the metadata. */
async function signingOf(db: Db, provider: Pick<StoredSamlProvider, 'signingKeyPair'>) {
  if (!provider.signingKeyPair) return undefined;
  try {
    return await certificateOf(db, provider.signingKeyPair);
  } catch {
    throw badRequest(
      formatMessage(SAML_MESSAGES.signingKeyInvalid, { name: provider.signingKeyPair }),
      'signingKeyPair',
    );
  }
}

async function samlOf(db: Db, provider: StoredSamlProvider, baseUrl: string): Promise<SAML> {
  const sp = serviceProviderOf(baseUrl, provider.name);
  const signing = await signingOf(db, provider);
  return new SAML({
    ...(signing ? { privateKey: signing.privateKey, signatureAlgorithm: 'sha256' as const } : {}),
    entryPoint: provider.ssoUrl,
    issuer: sp.spEntityId,
    callbackUrl: sp.acsUrl,
    audience: sp.spEntityId,
    idpIssuer: provider.idpEntityId || undefined,
    idpCert: provider.certificates,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: provider.wantResponseSigned,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_MS,
    cacheProvider: requestCache(db, provider.name),
    acceptedClockSkewMs: 60_000,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
  });
}

/** Arca's service provider metadata for one identity provider (what its administrator imports). */
export async function serviceProviderMetadata(db: Db, name: string, baseUrl: string): Promise<string> {
  const provider = await findSamlProvider(db, name);
  const signing = await signingOf(db, provider);
  return (await samlOf(db, provider, baseUrl)).generateServiceProviderMetadata(null, signing?.certificate ?? null);
}

/** The identity provider's URL with a new authentication request (HTTP-Redirect binding). */
export async function startSamlSignIn(
  db: Db,
  name: string,
  baseUrl: string,
  redirect: string | undefined,
): Promise<string> {
  const provider = await findSamlProvider(db, name);
  if (!provider.enabled) throw notFound(formatMessage(SAML_MESSAGES.notFound, { name }));
  return (await samlOf(db, provider, baseUrl)).getAuthorizeUrlAsync(safeRedirect(redirect), undefined, {});
}

const values = (attributes: Record<string, unknown>, name: string): string[] =>
  name
    ? asList(attributes[name] as unknown)
        .map((v) => (typeof v === 'string' ? v : textOf(v)))
        .filter(Boolean)
    : [];

const refusedBecause = (reason: string) => new HttpError(401, formatMessage(SAML_MESSAGES.responseRefused, { reason }));

/** An attribute of the first element `tag` (any namespace prefix) of some XML. */
const attributeOf = (xml: string, tag: string, attribute: string): string | undefined => {
  const element = new RegExp(`<(?:[\\w-]+:)?${tag}\\b[^>]*>`).exec(xml)?.[0];
  const value = element && new RegExp(`\\s${attribute}="([^"]*)"`).exec(element)?.[1];
  return value
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
};

/**
 * What node-saml leaves to its caller: the response and its (signed) assertion were sent to this
 * deployment's assertion consumer service (Destination, Recipient), and the assertion is taken
 * once — kept until it expires, so that a replay, even with a rewritten InResponseTo, is refused.
 */
async function checkDelivery(db: Db, profile: Profile, acsUrl: string): Promise<void> {
  const response = profile.getSamlResponseXml?.() ?? '';
  const assertion = profile.getAssertionXml?.() ?? '';
  const destination = attributeOf(response, 'Response', 'Destination');
  if (destination !== undefined && destination !== acsUrl) {
    throw refusedBecause(formatMessage(SAML_MESSAGES.wrongRecipient, { found: destination, expected: acsUrl }));
  }
  const recipient = attributeOf(assertion, 'SubjectConfirmationData', 'Recipient');
  if (recipient !== acsUrl) {
    throw refusedBecause(
      formatMessage(SAML_MESSAGES.wrongRecipient, { found: recipient ?? '(no Recipient)', expected: acsUrl }),
    );
  }
  const id = attributeOf(assertion, 'Assertion', 'ID');
  if (!id) throw refusedBecause('the assertion has no ID.');
  const now = Date.now();
  const until = Date.parse(attributeOf(assertion, 'Conditions', 'NotOnOrAfter') ?? '');
  await db.deleteFrom('saml_assertions').where('expires_at', '<', now).execute();
  const taken = await db
    .insertInto('saml_assertions')
    .values({ id, expires_at: Number.isFinite(until) ? until + 60_000 : now + 86_400_000 })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst();
  if (Number(taken.numInsertedOrUpdatedRows ?? 0) === 0) throw refusedBecause(SAML_MESSAGES.replayed);
}

/**
 * Takes a response posted to the assertion consumer service: its signatures (the assertion's,
 * and the response's when asked), issuer, audience, time window and InResponseTo (a request
 * of ours not answered before) checked; the user made or brought in line with the attributes.
 */
export async function finishSamlSignIn(
  db: Db,
  name: string,
  baseUrl: string,
  body: Record<string, string>,
): Promise<{ user: UserRow; redirect: string }> {
  const provider = await findSamlProvider(db, name);
  let profile;
  try {
    ({ profile } = await (await samlOf(db, provider, baseUrl)).validatePostResponseAsync(body));
  } catch (error) {
    throw new HttpError(401, formatMessage(SAML_MESSAGES.responseRefused, { reason: (error as Error).message }));
  }
  if (!profile) throw new HttpError(401, formatMessage(SAML_MESSAGES.responseRefused, { reason: 'no assertion.' }));
  await checkDelivery(db, profile, serviceProviderOf(baseUrl, name).acsUrl);
  const attributes = profile as unknown as Record<string, unknown>;
  const userName = provider.usernameAttribute
    ? (values(attributes, provider.usernameAttribute)[0] ?? '')
    : profile.nameID;
  if (!userName) {
    throw new HttpError(
      401,
      formatMessage(SAML_MESSAGES.attributeMissing, { attribute: provider.usernameAttribute || 'NameID' }),
    );
  }
  const existing = await findUserByName(db, userName);
  if (existing && (existing.realm !== SAML_REALM || existing.external_source !== name)) {
    throw new HttpError(401, formatMessage(OIDC_MESSAGES.nameOfLocalUser, { name: userName }));
  }
  if (!existing && !provider.autoCreateUser) throw new HttpError(401, OIDC_MESSAGES.noAutoCreate);
  const mapping = await mappingOf(db, provider.groupMapping).catch(() => []);
  const groups = new Set(values(attributes, provider.groupsAttribute));
  const user = await reflectExternalUser(
    db,
    {
      name: userName,
      email: values(attributes, provider.emailAttribute)[0] ?? null,
      realm: SAML_REALM,
      source: name,
      governed: mapping.map(([, to]) => to),
      memberOf: mapping.filter(([from]) => groups.has(from)).map(([, to]) => to),
    },
    existing,
  );
  return { user, redirect: safeRedirect(body.RelayState) };
}

/** Where a SAML user's browser goes after signing out of Arca: the provider's logout service. */
export async function samlLogoutUrl(db: Db, user: UserRow | undefined): Promise<string> {
  if (!user || user.realm !== SAML_REALM) return '';
  return (await stored(db)).find((p) => p.name === user.external_source)?.logoutUrl ?? '';
}
