import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  VCS_DEFAULT_URLS,
  VCS_MESSAGES,
  VCS_SERVICES,
  VCS_VENDORS,
  VCS_VENDOR_CODES,
  VCS_VENDOR_LABELS,
  formatMessage,
  vcsIntegrationFormSchema,
  type IntegrationGroup,
  type VcsIntegration,
  type VcsIntegrationForm,
  type VcsTestResult,
  type VcsVendor,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { VcsIntegrationsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { outboundRequest, type OutboundAnswer } from '../../core/outbound.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';

const DEVELOPER_TOOLS = [
  { key: 'vscode', name: 'VS Code' },
  { key: 'jetbrains', name: 'JetBrains IDEs' },
  { key: 'cli', name: 'JFrog CLI' },
];

const SEAL_CONTEXT = (key: string) => `vcs-integration:${key}`;
const iso = (ms: number) => new Date(Number(ms)).toISOString();
const base = (url: string) => url.replace(/\/+$/, '');

/**
 * The vendor's own "who am I" call with the token, as each vendor documents it: the login it
 * names must be the user name given.
 */
function whoAmI(
  vendor: VcsVendor,
  url: string,
  userName: string,
  token: string,
): { url: string; headers: Record<string, string>; login: (body: Record<string, unknown>) => unknown } {
  switch (vendor) {
    case 'github':
      return {
        url: `${base(url)}/user`,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
        },
        login: (body: Record<string, unknown>) => body.login,
      };
    case 'gitlab':
      return {
        url: `${base(url)}/api/v4/user`,
        headers: { 'private-token': token, accept: 'application/json' },
        login: (body: Record<string, unknown>) => body.username,
      };
    case 'bitbucket_cloud':
      return {
        url: `${base(url)}/2.0/user`,
        // an app password with its user name (Bitbucket Cloud's basic authentication)
        headers: {
          authorization: `Basic ${Buffer.from(`${userName}:${token}`).toString('base64')}`,
          accept: 'application/json',
        },
        login: (body: Record<string, unknown>) => body.username,
      };
    case 'bitbucket_server':
      return {
        url: `${base(url)}/rest/api/1.0/users/${encodeURIComponent(userName)}`,
        // an HTTP access token
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        login: (body: Record<string, unknown>) => body.slug ?? body.name,
      };
  }
}

/** Tests a vendor account: its API answers the token, and the account is the user named. */
export async function testConnection(
  app: FastifyInstance,
  form: { vendorName: VcsVendor; url: string; userName: string; token: string },
): Promise<VcsTestResult> {
  const url = form.url || VCS_DEFAULT_URLS[form.vendorName];
  if (!url) return { success: false, message: VCS_MESSAGES.url };
  const call = whoAmI(form.vendorName, url, form.userName, form.token);
  let answer: OutboundAnswer;
  try {
    answer = await outboundRequest(call.url, {
      headers: { ...call.headers, 'user-agent': 'Arca' },
      allowed: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
      timeouts: { connectMs: 10_000, firstByteMs: 15_000, idleMs: 15_000 },
    });
  } catch {
    return { success: false, message: VCS_MESSAGES.testFailed };
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    // not the vendor's JSON: a failure like any other
  }
  const login = call.login(body);
  if (answer.status !== 200 || typeof login !== 'string' || login.toLowerCase() !== form.userName.toLowerCase()) {
    return { success: false, message: VCS_MESSAGES.testFailed };
  }
  return { success: true, message: VCS_MESSAGES.testOk, login };
}

registerSecretSource('vcs-integrations', async (db) =>
  Promise.all(
    (await db.selectFrom('vcs_integrations').select(['key', 'token']).execute()).map(
      async (r) => (await unseal(db, SEAL_CONTEXT(r.key), r.token)) ?? '',
    ),
  ),
);

async function row(db: Db, key: string): Promise<VcsIntegrationsTable> {
  const found = await db.selectFrom('vcs_integrations').selectAll().where('key', '=', key).executeTakeFirst();
  if (!found) throw notFound(VCS_MESSAGES.notFound);
  return found;
}

function answerOf(r: VcsIntegrationsTable): VcsIntegration {
  return {
    key: r.key,
    name: r.name,
    vendorName: r.vendor as VcsVendor,
    vendor: VCS_VENDOR_CODES[r.vendor as VcsVendor] ?? 0,
    url: r.url,
    userName: r.username,
    products: JSON.parse(r.products) as string[],
    updatedOn: iso(r.updated_at),
    createdOn: iso(r.created_at),
  };
}

export async function listIntegrations(db: Db, vendor?: VcsVendor, service?: string): Promise<VcsIntegration[]> {
  let query = db.selectFrom('vcs_integrations').selectAll().orderBy('name');
  if (vendor) query = query.where('vendor', '=', vendor);
  const all = (await query.execute()).map(answerOf);
  return service ? all.filter((i) => i.products.includes(service)) : all;
}

/** The integrations grid: the groups with their cards; only what this deployment offers is available. */
export async function integrationGroups(db: Db, admin: boolean): Promise<IntegrationGroup[]> {
  const all = admin ? await listIntegrations(db) : [];
  const cards = VCS_VENDORS.map((vendor) => {
    const mine = all.filter((i) => i.vendorName === vendor);
    const services = VCS_SERVICES.map((s) => {
      const connections = mine.filter((i) => i.products.includes(s.name)).length;
      // neither service runs in this deployment: listed, but not to be chosen
      return { serviceName: s.name, connected: connections > 0, disabled: true, connections };
    });
    return {
      key: vendor,
      name: VCS_VENDOR_LABELS[vendor],
      vendor: VCS_VENDOR_CODES[vendor],
      integrations: mine.length,
      connected: mine.length > 0,
      configured: mine.some((i) => i.products.length > 0),
      configuredServices: services,
    };
  });
  return [
    { type: 'Source control', available: admin, items: admin ? cards : [] },
    {
      type: 'Developer Tools',
      available: true,
      // set up from the card with the user's own credentials: nothing kept here
      items: DEVELOPER_TOOLS.map((tool) => ({
        ...tool,
        vendor: VCS_VENDOR_CODES.unknown,
        integrations: 0,
        connected: false,
        configured: false,
        configuredServices: [],
      })),
    },
    { type: 'Continuous integration', available: false, items: [] },
  ];
}

/** The token to test or keep: the one given, or on an edit that gives none, the one kept. */
async function tokenOf(db: Db, form: { token: string; integrationKey?: string | undefined }): Promise<string> {
  if (form.token) return form.token;
  if (!form.integrationKey) throw badRequest(VCS_MESSAGES.token, 'token');
  const kept = await row(db, form.integrationKey);
  return (await unseal(db, SEAL_CONTEXT(kept.key), kept.token)) ?? '';
}

export async function testIntegration(app: FastifyInstance, input: VcsIntegrationForm): Promise<VcsTestResult> {
  const form = vcsIntegrationFormSchema.parse(input);
  return testConnection(app, { ...form, token: await tokenOf(app.db, form) });
}

/** Creates an integration once its credentials pass the vendor's test; the token is sealed. */
export async function createIntegration(request: FastifyRequest, input: VcsIntegrationForm): Promise<VcsIntegration> {
  const app = request.server;
  const form = vcsIntegrationFormSchema.parse(input);
  if (!form.token) throw badRequest(VCS_MESSAGES.token, 'token');
  const taken = await app.db
    .selectFrom('vcs_integrations')
    .select('key')
    .where('name', '=', form.integrationName)
    .executeTakeFirst();
  if (taken) throw conflict(VCS_MESSAGES.nameTaken, 'integrationName');
  const tested = await testConnection(app, form);
  if (!tested.success) throw badRequest(tested.message);
  const key = `${form.vendorName}-${randomBytes(6).toString('hex')}`;
  const now = Date.now();
  const stored: VcsIntegrationsTable = {
    key,
    vendor: form.vendorName,
    name: form.integrationName,
    url: form.url || VCS_DEFAULT_URLS[form.vendorName],
    username: form.userName,
    token: await seal(app.db, SEAL_CONTEXT(key), form.token),
    products: '[]',
    created_at: now,
    updated_at: now,
    created_by: auditActor(request).actor,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('vcs_integrations').values(stored).execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: 'create integration',
        target: stored.name,
        after: { vendor: stored.vendor, url: stored.url, user: stored.username },
      },
    });
  });
  return answerOf(stored);
}

/** Updates an integration; new credentials are tested first, a blank token keeps the stored one. */
export async function updateIntegration(
  request: FastifyRequest,
  key: string,
  input: VcsIntegrationForm,
): Promise<VcsIntegration> {
  const app = request.server;
  const before = await row(app.db, key);
  const form = vcsIntegrationFormSchema.parse({ ...input, integrationKey: key, vendorName: before.vendor });
  const clash = await app.db
    .selectFrom('vcs_integrations')
    .select('key')
    .where('name', '=', form.integrationName)
    .where('key', '!=', key)
    .executeTakeFirst();
  if (clash) throw conflict(VCS_MESSAGES.nameTaken, 'integrationName');
  const token = await tokenOf(app.db, form);
  const tested = await testConnection(app, { ...form, token });
  if (!tested.success) throw badRequest(tested.message);
  await app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('vcs_integrations')
      .set({
        name: form.integrationName,
        url: form.url || VCS_DEFAULT_URLS[form.vendorName],
        username: form.userName,
        token: await seal(trx, SEAL_CONTEXT(key), token),
        updated_at: Date.now(),
      })
      .where('key', '=', key)
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'update integration', target: form.integrationName },
    });
  });
  return answerOf(await row(app.db, key));
}

/** The services an integration serves; only services this deployment runs may be chosen. */
export async function setProducts(request: FastifyRequest, key: string, products: string[]): Promise<VcsIntegration> {
  await row(request.server.db, key);
  if (products.length) throw badRequest(VCS_MESSAGES.serviceMissing, 'products');
  await request.server.db
    .updateTable('vcs_integrations')
    .set({ products: JSON.stringify(products), updated_at: Date.now() })
    .where('key', '=', key)
    .execute();
  return answerOf(await row(request.server.db, key));
}

export async function deleteIntegration(request: FastifyRequest, key: string): Promise<{ message: string }> {
  const db = request.server.db;
  const before = await row(db, key);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('vcs_integrations').where('key', '=', key).execute();
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'delete integration', target: before.name },
    });
  });
  return { message: formatMessage(VCS_MESSAGES.deleted, { name: before.name }) };
}
