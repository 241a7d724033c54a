import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  DEFAULT_SERVER_NAME,
  GENERAL_DEFAULTS,
  LOGO_MAX_BYTES,
  LOGO_TYPES,
  SETTINGS_MESSAGES,
  formatMessage,
  generalSettingsSchema,
  type GeneralConfigAnswer,
  type GeneralSettings,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { audit } from '../../core/audit.js';
import { badRequest, notFound } from '../../core/errors.js';
import { getSetting, putSetting, serverNameOf } from '../../core/settings.store.js';
import { findRepository } from '../repositories/index.js';

/** The stored general settings over their defaults. */
export async function generalSettings(db: Db): Promise<GeneralSettings> {
  return generalSettingsSchema.parse({ ...GENERAL_DEFAULTS, ...(await getSetting(db, 'general')) });
}

export async function generalConfigAnswer(
  db: Db,
  configured: { serverName?: string; baseUrl?: string },
): Promise<GeneralConfigAnswer> {
  const settings = await generalSettings(db);
  return {
    ...settings,
    logoUploaded: (await getSetting(db, 'general.logo')) !== '',
    effectiveServerName: await serverNameOf(db, configured.serverName, DEFAULT_SERVER_NAME),
    effectiveUrlBase: settings.customUrlBase || configured.baseUrl || '',
  };
}

function checkUrl(value: string, field: string): string {
  if (!value) return '';
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw badRequest(SETTINGS_MESSAGES.urlInvalid, field);
  }
  return value.replace(/\/+$/, '');
}

/** Checks and saves the general settings (all or nothing), audited with what changed. */
export async function saveGeneralSettings(request: FastifyRequest, input: GeneralSettings): Promise<void> {
  const db = request.server.db;
  const proxy = input.reverseProxy;
  if (!proxy.useHttp && !proxy.useHttps) throw badRequest(SETTINGS_MESSAGES.noScheme, 'reverseProxy.useHttp');
  const ports = new Set<number>([
    ...(proxy.useHttp ? [proxy.httpPort] : []),
    ...(proxy.useHttps ? [proxy.httpsPort] : []),
  ]);
  if (proxy.useHttp && proxy.useHttps && proxy.httpPort === proxy.httpsPort) {
    throw badRequest(
      formatMessage(SETTINGS_MESSAGES.portTaken, { port: String(proxy.httpPort) }),
      'reverseProxy.httpsPort',
    );
  }
  const repositories = [];
  for (const entry of proxy.reverseProxyRepositories) {
    const repo = await findRepository(db, entry.repoKey);
    if (!repo) throw badRequest(formatMessage(SETTINGS_MESSAGES.repositoryUnknown, { key: entry.repoKey }));
    if (proxy.dockerReverseProxyMethod === 'PORTPERREPO') {
      if (entry.port === undefined)
        throw badRequest(SETTINGS_MESSAGES.portInvalid, 'reverseProxy.reverseProxyRepositories');
      if (ports.has(entry.port))
        throw badRequest(formatMessage(SETTINGS_MESSAGES.portTaken, { port: String(entry.port) }));
      ports.add(entry.port);
    }
    repositories.push({ repoKey: repo.key, ...(entry.port !== undefined ? { port: entry.port } : {}) });
  }
  const next: GeneralSettings = {
    ...input,
    customUrlBase: checkUrl(input.customUrlBase, 'customUrlBase'),
    logoUrl: checkUrl(input.logoUrl, 'logoUrl'),
    reverseProxy: {
      ...proxy,
      serverName: proxy.serverName.toLowerCase(),
      upstream: checkUrl(proxy.upstream, 'reverseProxy.upstream'),
      reverseProxyRepositories: repositories,
    },
  };
  const before = await generalSettings(db);
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'general', next);
    await audit(
      request,
      { category: 'system', action: 'update', target: 'general settings', before, after: next },
      trx,
    );
  });
}

/** The image types a logo may be, recognised by their first bytes rather than by what the client says. */
function sniffImage(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a')
    return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  const head = bytes.subarray(0, 1024).toString('utf8').trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(head)) return 'image/svg+xml';
  return undefined;
}

/** Stores an uploaded logo (at most 512 KB, a PNG, JPEG, GIF, SVG or WebP image). */
export async function saveLogo(request: FastifyRequest, bytes: Buffer): Promise<void> {
  if (bytes.length > LOGO_MAX_BYTES) throw badRequest(SETTINGS_MESSAGES.logoTooLarge);
  const type = sniffImage(bytes);
  if (!type || !(LOGO_TYPES as readonly string[]).includes(type)) throw badRequest(SETTINGS_MESSAGES.logoType);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await request.server.db.transaction().execute(async (trx) => {
    await putSetting(trx, 'general.logo', { type, data: bytes.toString('base64'), sha256 });
    await audit(request, { category: 'system', action: 'update', target: 'logo', after: { type, sha256 } }, trx);
  });
}

export async function removeLogo(request: FastifyRequest): Promise<void> {
  const db = request.server.db;
  if ((await getSetting(db, 'general.logo')) === '') throw notFound(SETTINGS_MESSAGES.noLogo);
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'general.logo', '');
    await audit(request, { category: 'system', action: 'delete', target: 'logo' }, trx);
  });
}

export async function readLogo(db: Db): Promise<{ type: string; bytes: Buffer; sha256: string }> {
  const logo = await getSetting(db, 'general.logo');
  if (logo === '') throw notFound(SETTINGS_MESSAGES.noLogo);
  return { type: logo.type, bytes: Buffer.from(logo.data, 'base64'), sha256: logo.sha256 };
}
