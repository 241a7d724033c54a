import type { FastifyRequest } from 'fastify';
import { PROXY_MESSAGES, formatMessage, type ProxyAnswer, type Proxy } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { audit } from '../../core/audit.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { findProxy, listProxyRows, proxySealContext, type ProxyRow } from '../../core/proxies.js';
import { seal } from '../../core/sealing.js';
import { listRepositories } from '../repositories/index.js';
import { webhooksUsingProxy } from '../webhooks/index.js';

/** Who names each proxy: remote repositories and webhook handlers. */
async function usersByProxy(db: Db): Promise<Map<string, string[]>> {
  const users = new Map<string, string[]>();
  const add = (key: string, who: string) => users.set(key, [...(users.get(key) ?? []), who]);
  for (const repo of await listRepositories(db)) {
    if (repo.rclass === 'remote' && repo.proxy_key) add(repo.proxy_key, `repository ${repo.key}`);
  }
  for (const { proxy, webhook } of await webhooksUsingProxy(db)) add(proxy, `webhook ${webhook}`);
  return users;
}

function answerOf(row: ProxyRow, usedBy: string[]): ProxyAnswer {
  return {
    key: row.key,
    host: row.host,
    port: Number(row.port),
    username: row.username,
    passwordSet: row.password !== '',
    ntHost: row.nt_host,
    domain: row.domain,
    defaultProxy: Number(row.default_proxy) === 1,
    redirectToHosts: JSON.parse(row.redirect_to_hosts) as string[],
    usedBy,
  };
}

export async function listProxies(db: Db): Promise<ProxyAnswer[]> {
  const users = await usersByProxy(db);
  return (await listProxyRows(db)).map((row) => answerOf(row, users.get(row.key) ?? []));
}

export async function getProxy(db: Db, key: string): Promise<ProxyAnswer> {
  const row = await findProxy(db, key);
  if (!row) throw notFound(formatMessage(PROXY_MESSAGES.notFound, { key }));
  return answerOf(row, (await usersByProxy(db)).get(key) ?? []);
}

/** What the audit log keeps of a proxy: everything but the password. */
const audited = (p: ProxyAnswer | undefined) => p && { ...p, usedBy: undefined };

/**
 * Creates (`existing` undefined) or replaces a proxy. An empty password on an edit keeps the
 * stored one; a proxy made the default takes the flag from the one that had it.
 */
export async function saveProxy(request: FastifyRequest, input: Proxy, existingKey?: string): Promise<ProxyAnswer> {
  const db = request.server.db;
  const before = existingKey ? await getProxy(db, existingKey) : undefined;
  if (!existingKey && (await findProxy(db, input.key))) {
    throw conflict(formatMessage(PROXY_MESSAGES.keyTaken, { key: input.key }), 'key');
  }
  if (existingKey && input.key !== existingKey) throw badRequest(PROXY_MESSAGES.keyChange, 'key');
  const stored = existingKey ? await findProxy(db, existingKey) : undefined;
  const password =
    input.password !== '' ? await seal(db, proxySealContext(input.key), input.password) : (stored?.password ?? '');
  const now = Date.now();
  const row: ProxyRow = {
    key: input.key,
    host: input.host,
    port: input.port,
    username: input.username,
    password: input.username ? password : '',
    nt_host: input.ntHost,
    domain: input.domain,
    default_proxy: input.defaultProxy ? 1 : 0,
    redirect_to_hosts: JSON.stringify([...new Set(input.redirectToHosts.map((h) => h.toLowerCase()))]),
    created_at: stored?.created_at ?? now,
    updated_at: now,
  };
  await db.transaction().execute(async (trx) => {
    if (input.defaultProxy) await trx.updateTable('proxies').set({ default_proxy: 0 }).execute();
    if (stored) await trx.updateTable('proxies').set(row).where('key', '=', row.key).execute();
    else await trx.insertInto('proxies').values(row).execute();
    await audit(
      request,
      {
        category: 'system',
        action: stored ? 'update' : 'create',
        target: `proxy ${row.key}`,
        before: audited(before),
        after: audited(answerOf(row, [])),
      },
      trx,
    );
  });
  return getProxy(db, row.key);
}

/** Removes a proxy that no remote repository or webhook names. */
export async function removeProxy(request: FastifyRequest, key: string): Promise<void> {
  const db = request.server.db;
  const before = await getProxy(db, key);
  if (before.usedBy.length) {
    throw conflict(formatMessage(PROXY_MESSAGES.inUse, { key, users: before.usedBy.join(', ') }));
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('proxies').where('key', '=', key).execute();
    await audit(
      request,
      { category: 'system', action: 'delete', target: `proxy ${key}`, before: audited(before) },
      trx,
    );
  });
}
