import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import {
  LDAP_MESSAGES,
  LDAP_REALM,
  formatMessage,
  ldapGroupSettingBodySchema,
  ldapSettingBodySchema,
  type LdapDirectoryGroup,
  type LdapGroupSetting,
  type LdapGroupSettingBody,
  type LdapSetting,
  type LdapSettingBody,
  type LdapTestBody,
  type LdapTestResult,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { listCertificateRows } from '../../core/certificates.js';
import { recordChange } from '../../core/changes.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { outboundAllowed } from '../../core/outbound-policy.js';
import { getSetting, putSetting, type StoredLdapSetting } from '../../core/settings.store.js';
import { groupNames, insertGroup } from '../groups/index.js';
import { findUsersByFoldedName, reflectExternalUser } from '../identity/index.js';
import {
  DirectoryError,
  directoryGroups,
  signInUser,
  testConnection,
  type DirectoryUser,
  type LdapConnection,
} from './directory.client.js';

const SEAL_CONTEXT = (key: string) => `ldap-setting:${key}`;

/** Where sign-in notes a directory it could not ask (the app's log, once registered). */
let log: Pick<FastifyBaseLogger, 'warn'> = { warn: () => undefined };
export function useDirectoryLog(logger: Pick<FastifyBaseLogger, 'warn'>): void {
  log = logger;
}
const GROUP_NAME_INVALID = /[^A-Za-z0-9._-]+/g;

/** The Arca name of a directory group: what Arca's group names allow, 64 characters at most. */
export const arcaGroupName = (directoryName: string) =>
  directoryName
    .replace(GROUP_NAME_INVALID, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64) || 'group';

const answerOf = ({ managerPassword, ...rest }: StoredLdapSetting): LdapSetting => ({
  ...rest,
  managerPasswordSet: managerPassword !== '',
});

async function stored(db: Db): Promise<StoredLdapSetting[]> {
  return getSetting(db, 'ldap.settings');
}

export async function listLdapSettings(db: Db): Promise<LdapSetting[]> {
  return (await stored(db)).map(answerOf);
}

export async function getLdapSetting(db: Db, key: string): Promise<LdapSetting> {
  const found = (await stored(db)).find((s) => s.key === key);
  if (!found) throw notFound(formatMessage(LDAP_MESSAGES.notFound, { key }));
  return answerOf(found);
}

export async function listGroupSettings(db: Db): Promise<LdapGroupSetting[]> {
  return getSetting(db, 'ldap.groups');
}

async function connectionOf(db: Db, setting: StoredLdapSetting): Promise<LdapConnection> {
  const managerPassword = setting.managerPassword
    ? ((await unseal(db, SEAL_CONTEXT(setting.key), setting.managerPassword)) ?? '')
    : '';
  return { ...setting, managerPassword, allowedHosts: await outboundAllowed(db) };
}

registerSecretSource('directory', async (db) =>
  Promise.all((await stored(db)).map(async (s) => (await connectionOf(db, s)).managerPassword)),
);

/** The authorities the deployment trusts besides the system's (Keys Management's certificates). */
async function trustedAuthorities(db: Db): Promise<string[]> {
  return (await listCertificateRows(db)).filter((c) => c.kind === 'trusted').map((c) => c.certificate);
}

/**
 * Creates or replaces an LDAP setting (`key` names the one replaced); a manager password left
 * out keeps the stored one.
 */
export async function saveLdapSetting(
  request: FastifyRequest,
  body: LdapSettingBody,
  replaces?: string,
): Promise<LdapSetting> {
  const db = request.server.db;
  const parsed = ldapSettingBodySchema.parse(body);
  const all = await stored(db);
  const before = replaces === undefined ? undefined : all.find((s) => s.key === replaces);
  if (replaces !== undefined && !before) throw notFound(formatMessage(LDAP_MESSAGES.notFound, { key: replaces }));
  if (parsed.key !== replaces && all.some((s) => s.key === parsed.key)) {
    throw conflict(formatMessage(LDAP_MESSAGES.keyTaken, { key: parsed.key }), 'key');
  }
  const kept = before?.managerPassword
    ? ((await unseal(db, SEAL_CONTEXT(before.key), before.managerPassword)) ?? '')
    : '';
  const password = parsed.managerPassword ?? kept;
  const { managerPassword: _given, ...fields } = parsed;
  const next: StoredLdapSetting = {
    ...fields,
    managerPassword: password ? await seal(db, SEAL_CONTEXT(parsed.key), password) : '',
  };
  const groups = await listGroupSettings(db);
  await db.transaction().execute(async (trx) => {
    await putSetting(trx, 'ldap.settings', before ? all.map((s) => (s.key === replaces ? next : s)) : [...all, next]);
    // group settings follow a renamed LDAP setting
    if (before && replaces !== parsed.key && groups.some((g) => g.ldapSettingKey === replaces)) {
      await putSetting(
        trx,
        'ldap.groups',
        groups.map((g) => (g.ldapSettingKey === replaces ? { ...g, ldapSettingKey: parsed.key } : g)),
      );
    }
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: before ? 'update' : 'create',
        target: `ldap setting ${parsed.key}`,
        ...(before ? { before: answerOf(before) } : {}),
        after: answerOf(next),
      },
    });
  });
  return answerOf(next);
}

export async function deleteLdapSetting(request: FastifyRequest, key: string): Promise<void> {
  const db = request.server.db;
  const all = await stored(db);
  if (!all.some((s) => s.key === key)) throw notFound(formatMessage(LDAP_MESSAGES.notFound, { key }));
  const users = (await listGroupSettings(db)).filter((g) => g.ldapSettingKey === key).map((g) => g.name);
  if (users.length) throw conflict(formatMessage(LDAP_MESSAGES.inUse, { key, names: users.join(', ') }));
  await db.transaction().execute(async (trx) => {
    await putSetting(
      trx,
      'ldap.settings',
      all.filter((s) => s.key !== key),
    );
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'delete', target: `ldap setting ${key}` },
    });
  });
}

export async function saveGroupSetting(
  request: FastifyRequest,
  body: LdapGroupSettingBody,
  replaces?: string,
): Promise<LdapGroupSetting> {
  const db = request.server.db;
  const parsed = ldapGroupSettingBodySchema.parse(body);
  const all = await listGroupSettings(db);
  if (replaces !== undefined && !all.some((g) => g.name === replaces)) {
    throw notFound(formatMessage(LDAP_MESSAGES.groupSettingNotFound, { name: replaces }));
  }
  if (parsed.name !== replaces && all.some((g) => g.name === parsed.name)) {
    throw conflict(formatMessage(LDAP_MESSAGES.groupSettingTaken, { name: parsed.name }), 'name');
  }
  if (!(await stored(db)).some((s) => s.key === parsed.ldapSettingKey)) {
    throw badRequest(formatMessage(LDAP_MESSAGES.notFound, { key: parsed.ldapSettingKey }), 'ldapSettingKey');
  }
  await db.transaction().execute(async (trx) => {
    await putSetting(
      trx,
      'ldap.groups',
      replaces === undefined ? [...all, parsed] : all.map((g) => (g.name === replaces ? parsed : g)),
    );
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'security',
        action: replaces === undefined ? 'create' : 'update',
        target: `ldap group setting ${parsed.name}`,
        after: parsed,
      },
    });
  });
  return parsed;
}

export async function deleteGroupSetting(request: FastifyRequest, name: string): Promise<void> {
  const db = request.server.db;
  const all = await listGroupSettings(db);
  if (!all.some((g) => g.name === name)) throw notFound(formatMessage(LDAP_MESSAGES.groupSettingNotFound, { name }));
  await db.transaction().execute(async (trx) => {
    await putSetting(
      trx,
      'ldap.groups',
      all.filter((g) => g.name !== name),
    );
    await recordChange(trx, auditActor(request), {
      audit: { category: 'security', action: 'delete', target: `ldap group setting ${name}` },
    });
  });
}

/** The groups of a user across the group settings of its LDAP setting. */
async function groupsOfUser(
  db: Db,
  connection: LdapConnection,
  key: string,
  user: DirectoryUser,
  trusted: string[],
): Promise<string[]> {
  const names = new Set<string>();
  for (const groups of (await listGroupSettings(db)).filter((g) => g.ldapSettingKey === key)) {
    for (const group of await directoryGroups(connection, trusted, groups, user)) names.add(group.name);
  }
  return [...names].sort();
}

/**
 * "Test": connects and binds with the setting as given (the stored manager password when none is
 * given); with a user name, signs that user in and lists the groups the directory gives it.
 */
export async function testLdapSetting(db: Db, body: LdapTestBody): Promise<LdapTestResult> {
  const setting = ldapSettingBodySchema.parse(body.setting);
  const known = (await stored(db)).find((s) => s.key === setting.key);
  const connection: LdapConnection = {
    ...setting,
    managerPassword: setting.managerPassword ?? (known ? (await connectionOf(db, known)).managerPassword : ''),
    allowedHosts: await outboundAllowed(db),
  };
  const trusted = await trustedAuthorities(db);
  try {
    if (!body.username) {
      await testConnection(connection, trusted);
      return { ok: true, message: LDAP_MESSAGES.connectionOk, user: null };
    }
    const user = await signInUser(connection, trusted, body.username, body.password ?? '');
    const groups = await groupsOfUser(db, connection, setting.key, user, trusted);
    return {
      ok: true,
      message: `Signed in as ${user.dn}.`,
      user: { dn: user.dn, email: user.email, groups },
    };
  } catch (error) {
    if (error instanceof DirectoryError) return { ok: false, message: error.message, user: null };
    throw error;
  }
}

/** The groups a group setting finds in the directory, and which of them Arca has already. */
export async function directoryGroupsOf(db: Db, name: string): Promise<LdapDirectoryGroup[]> {
  const groups = (await listGroupSettings(db)).find((g) => g.name === name);
  if (!groups) throw notFound(formatMessage(LDAP_MESSAGES.groupSettingNotFound, { name }));
  const setting = (await stored(db)).find((s) => s.key === groups.ldapSettingKey)!;
  let found;
  try {
    found = await directoryGroups(await connectionOf(db, setting), await trustedAuthorities(db), groups);
  } catch (error) {
    if (error instanceof DirectoryError) throw badRequest(error.message);
    throw error;
  }
  const existing = new Set((await groupNames(db)).map((g) => g.toLowerCase()));
  return found.map((g) => ({ ...g, imported: existing.has(arcaGroupName(g.name).toLowerCase()) }));
}

/** Makes Arca groups (realm ldap) of the directory groups named; those Arca has already are left. */
export async function importDirectoryGroups(request: FastifyRequest, name: string, names: string[]): Promise<string[]> {
  const db = request.server.db;
  const found = await directoryGroupsOf(db, name);
  const chosen = names.map((n) => {
    const group = found.find((g) => g.name === n);
    if (!group) throw badRequest(formatMessage(LDAP_MESSAGES.directoryGroupUnknown, { name: n }), 'names');
    return group;
  });
  const made: string[] = [];
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const group of chosen.filter((g) => !g.imported)) {
      const arcaName = arcaGroupName(group.name);
      await insertGroup(trx, {
        name: arcaName,
        description: group.description || `Directory group ${group.dn}`,
        auto_join: 0,
        admin_privileges: 0,
        watch_manager: 0,
        policy_manager: 0,
        policy_viewer: 0,
        realm: LDAP_REALM,
        created_at: now,
        updated_at: now,
      });
      made.push(arcaName);
    }
    if (made.length) {
      await recordChange(trx, auditActor(request), {
        audit: {
          category: 'group',
          action: 'import',
          target: made.join(', '),
          message: `from ldap group setting ${name}`,
        },
      });
    }
  });
  return made;
}

export type DirectoryOutcome =
  | { user: UserRow }
  | 'unknown'
  /** The entry was found and the password refused: `account` is the entry's own name. */
  | { refused: string };

/**
 * The one Arca account of a directory entry: its name as the directory spells it, found case and
 * surrounding spaces aside, so that every spelling of a name leads to the same account (and its
 * second factor, lockout and restrictions). Several such accounts (made before names were
 * compared this way) are refused until an administrator keeps one; an account of another realm
 * is never taken over.
 */
async function accountOf(db: Db, found: DirectoryUser): Promise<UserRow | undefined> {
  const accounts = await findUsersByFoldedName(db, found.name);
  if (accounts.length > 1) {
    throw new DirectoryError(
      formatMessage(LDAP_MESSAGES.duplicateAccounts, { dn: found.dn, names: accounts.map((a) => a.name).join(', ') }),
      'setting',
    );
  }
  const [account] = accounts;
  if (account && account.realm !== LDAP_REALM) {
    throw new DirectoryError(formatMessage(LDAP_MESSAGES.nameOfOtherRealm, { name: account.name }), 'setting');
  }
  return account;
}

/**
 * Signs a user in against the enabled LDAP settings, in order: the first directory that knows
 * the name decides. A directory that cannot be reached is skipped (and logged). On success the
 * user is made (when the setting allows it) or updated, and its memberships of the groups
 * imported from the directory follow the directory's.
 */
export async function directorySignIn(
  db: Db,
  name: string,
  password: string,
  existing: UserRow | undefined,
): Promise<DirectoryOutcome> {
  const settings = (await stored(db)).filter(
    (s) => s.enabled && (!existing?.external_source || existing.external_source === s.key),
  );
  if (!settings.length) return 'unknown';
  const trusted = await trustedAuthorities(db);
  for (const setting of settings) {
    const connection = await connectionOf(db, setting);
    let found: DirectoryUser;
    try {
      found = await signInUser(connection, trusted, name, password);
    } catch (error) {
      if (error instanceof DirectoryError && error.kind === 'password') return { refused: error.account ?? name };
      if (!(error instanceof DirectoryError) || error.kind === 'setting') {
        log.warn({ ldap: setting.key, err: error }, 'an LDAP server could not be asked');
      }
      continue;
    }
    const account = await accountOf(db, found);
    if (!account && !setting.autoCreateUser) throw new DirectoryError(LDAP_MESSAGES.noAutoCreate, 'unknown');
    let groups: string[];
    try {
      groups = await groupsOfUser(db, connection, setting.key, found, trusted);
    } catch (error) {
      log.warn({ ldap: setting.key, err: error }, 'the groups of an LDAP user could not be read');
      groups = [];
    }
    return { user: await reflect(db, account?.name ?? found.name, found, setting.key, groups, account) };
  }
  return 'unknown';
}

/** The Arca user of a directory user: made or updated, its imported groups as the directory says. */
async function reflect(
  db: Db,
  name: string,
  found: DirectoryUser,
  key: string,
  directoryGroupNames: string[],
  existing: UserRow | undefined,
): Promise<UserRow> {
  const wanted = new Set(directoryGroupNames.map((g) => arcaGroupName(g).toLowerCase()));
  const imported = await groupNames(db, LDAP_REALM);
  return reflectExternalUser(
    db,
    {
      name,
      email: found.email || null,
      realm: LDAP_REALM,
      source: key,
      governed: imported,
      memberOf: imported.filter((g) => wanted.has(g.toLowerCase())),
    },
    existing,
  );
}
