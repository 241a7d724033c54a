import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ProxiesTable } from '../db/schema.js';
import { cachedConfig } from './config-cache.js';
import type { OutboundProxy } from './outbound.js';
import { registerSecretSource, unseal } from './sealing.js';

export type ProxyRow = Selectable<ProxiesTable>;

/** The seal context of a proxy's password. */
export const proxySealContext = (key: string) => `proxy:${key}`;

registerSecretSource('proxies', async (db) =>
  Promise.all(
    (await listProxyRows(db)).map(async (row) =>
      row.password ? ((await unseal(db, proxySealContext(row.key), row.password)) ?? '') : '',
    ),
  ),
);

/** Every proxy, by key (cached per configuration generation). */
export function listProxyRows(db: Db): Promise<ProxyRow[]> {
  return cachedConfig(db, 'proxies', () => db.selectFrom('proxies').selectAll().orderBy('key').execute());
}

export async function findProxy(db: Db, key: string): Promise<ProxyRow | undefined> {
  return (await listProxyRows(db)).find((p) => p.key === key);
}

/**
 * The proxy an outbound request of a remote repository or webhook goes through: the one it names,
 * else the default proxy, else none. A named proxy that was removed means a direct connection.
 */
export async function outboundProxy(db: Db, key: string): Promise<OutboundProxy | undefined> {
  const rows = await listProxyRows(db);
  const row = key ? rows.find((p) => p.key === key) : rows.find((p) => Number(p.default_proxy) === 1);
  if (!row) return undefined;
  const password = row.password ? ((await unseal(db, proxySealContext(row.key), row.password)) ?? '') : '';
  return {
    host: row.host,
    port: Number(row.port),
    username: row.username,
    password,
    redirectToHosts: JSON.parse(row.redirect_to_hosts) as string[],
  };
}
