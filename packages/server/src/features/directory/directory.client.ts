import { rootCertificates } from 'node:tls';
import { Client, FilterParser, InvalidCredentialsError, NoSuchObjectError, type Entry } from 'ldapts';
import { LDAP_MESSAGES, formatMessage, type LdapGroupSetting } from '@arca/contracts';
import { OutboundRefused, checkOutboundHost } from '../../core/outbound.js';

/** What a directory call needs of an LDAP setting: the manager password in clear. */
export interface LdapConnection {
  ldapUrl: string;
  startTls: boolean;
  userDnPattern: string;
  searchFilter: string;
  searchBase: string;
  searchSubTree: boolean;
  managerDn: string;
  managerPassword: string;
  emailAttribute: string;
  /** Hosts the outbound policy lets Arca reach although loopback or link-local (see `core/outbound-policy`). */
  allowedHosts: readonly string[];
}

/** A directory refusal, with the message that says exactly what failed. */
export class DirectoryError extends Error {
  constructor(
    message: string,
    /** 'password': the user was found and the password refused; 'unknown': no such user; else the server or setting. */
    readonly kind: 'password' | 'unknown' | 'setting',
    /** For a refused password: the directory's own name of the entry found (see `canonicalName`). */
    readonly account?: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 5000;

/** The URL without its path, and the base DN its path names (`ldap://host/dc=acme,dc=test`). */
export function splitUrl(ldapUrl: string): { url: string; baseDn: string } {
  const parsed = new URL(ldapUrl);
  return {
    url: `${parsed.protocol}//${parsed.host}`,
    baseDn: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
  };
}

/** A DN below the URL's base DN (`ou=people` under `dc=acme,dc=test`). */
export function underBase(relative: string, baseDn: string): string {
  if (!baseDn) return relative;
  if (!relative) return baseDn;
  return relative.toLowerCase().endsWith(baseDn.toLowerCase()) ? relative : `${relative},${baseDn}`;
}

/** A value put into a filter (RFC 4515): its special characters escaped. */
export const escapeFilterValue = (value: string) =>
  value.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** A value put into a DN (RFC 4514). */
export const escapeDnValue = (value: string) =>
  value.replace(/[,+"\\<>;=]/g, (c) => `\\${c}`).replace(/^[ #]|[ ]$/g, (c) => `\\${c}`);

const first = (entry: Entry, attribute: string): string => {
  const value =
    entry[attribute] ?? Object.entries(entry).find(([k]) => k.toLowerCase() === attribute.toLowerCase())?.[1];
  const one = Array.isArray(value) ? value[0] : value;
  return one === undefined ? '' : Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

const all = (entry: Entry, attribute: string): string[] => {
  const value =
    entry[attribute] ?? Object.entries(entry).find(([k]) => k.toLowerCase() === attribute.toLowerCase())?.[1];
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map((v) => (Buffer.isBuffer(v) ? v.toString('utf8') : String(v)));
};

/** Refuses a filter the LDAP grammar does not take, naming it as `shown` (the configured text). */
function checkFilter(filter: string, shown = filter): void {
  try {
    FilterParser.parseString(filter);
  } catch {
    throw new DirectoryError(formatMessage(LDAP_MESSAGES.filterInvalid, { filter: shown }), 'setting');
  }
}

/** A connected client (StartTLS done when asked), with the deployment's trusted authorities. */
async function open(setting: LdapConnection, trusted: readonly string[]): Promise<Client> {
  const { url } = splitUrl(setting.ldapUrl);
  try {
    // a directory is reached as any administrator's address is: not this host nor link-local
    await checkOutboundHost(new URL(url), setting.allowedHosts);
  } catch (error) {
    if (error instanceof OutboundRefused) {
      throw new DirectoryError(
        formatMessage(LDAP_MESSAGES.connectFailed, { url: setting.ldapUrl, reason: error.message }),
        'setting',
      );
    }
    throw connectFailed(setting.ldapUrl, error);
  }
  const tlsOptions = { ca: [...rootCertificates, ...trusted] };
  const client = new Client({
    url,
    timeout: TIMEOUT_MS,
    connectTimeout: TIMEOUT_MS,
    ...(url.startsWith('ldaps:') ? { tlsOptions } : {}),
  });
  try {
    // the certificate is checked against the URL's host (the library would check 'localhost')
    if (setting.startTls && url.startsWith('ldap:'))
      await client.startTLS({ ...tlsOptions, host: new URL(url).hostname });
  } catch (error) {
    await client.unbind().catch(() => undefined);
    throw connectFailed(setting.ldapUrl, error);
  }
  return client;
}

function connectFailed(ldapUrl: string, error: unknown): DirectoryError {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === 'ECONNREFUSED'
      ? 'the connection was refused.'
      : code === 'ENOTFOUND'
        ? 'the host is unknown.'
        : /timeout/i.test((error as Error).message)
          ? 'no answer in time.'
          : (error as Error).message;
  return new DirectoryError(formatMessage(LDAP_MESSAGES.connectFailed, { url: ldapUrl, reason }), 'setting');
}

/** Binds, telling a refused bind from a connection that failed. */
async function bind(client: Client, ldapUrl: string, dn: string, password: string): Promise<void> {
  try {
    await client.bind(dn, password);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      throw new DirectoryError(formatMessage(LDAP_MESSAGES.bindRefused, { dn }), 'setting');
    }
    throw connectFailed(ldapUrl, error);
  }
}

async function search(client: Client, base: string, filter: string, subTree: boolean, attributes?: string[]) {
  checkFilter(filter);
  try {
    return (
      await client.search(base, { scope: subTree ? 'sub' : 'one', filter, ...(attributes ? { attributes } : {}) })
    ).searchEntries;
  } catch (error) {
    if (error instanceof NoSuchObjectError) {
      throw new DirectoryError(formatMessage(LDAP_MESSAGES.baseNotFound, { base }), 'setting');
    }
    throw error;
  }
}

/** Opens a connection, binds as the manager (or anonymously) and runs `work`, closing it after. */
async function withManager<T>(
  setting: LdapConnection,
  trusted: readonly string[],
  work: (client: Client) => Promise<T>,
): Promise<T> {
  let client: Client;
  try {
    client = await open(setting, trusted);
  } catch (error) {
    throw error instanceof DirectoryError ? error : connectFailed(setting.ldapUrl, error);
  }
  try {
    if (setting.managerDn) await bind(client, setting.ldapUrl, setting.managerDn, setting.managerPassword);
    return await work(client);
  } catch (error) {
    throw error instanceof DirectoryError ? error : connectFailed(setting.ldapUrl, error);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** Connects and binds as the manager: what "test connection" answers. */
export async function testConnection(setting: LdapConnection, trusted: readonly string[]): Promise<void> {
  const { baseDn } = splitUrl(setting.ldapUrl);
  if (setting.searchFilter) checkFilter(setting.searchFilter.replaceAll('{0}', 'user'), setting.searchFilter);
  await withManager(setting, trusted, async (client) => {
    // the search base must exist: a one-level read of it says so
    if (setting.searchFilter) {
      await search(client, underBase(setting.searchBase, baseDn), '(objectClass=*)', false, ['dn']);
    }
  });
}

export interface DirectoryUser {
  dn: string;
  email: string;
  entry: Entry;
  /** The user's name as the directory spells it (see `canonicalName`). */
  name: string;
}

/** The attributes a setting looks users up by: `uid` of `(uid={0})` and of `uid={0},ou=people`. */
function namingAttributes(setting: Pick<LdapConnection, 'searchFilter' | 'userDnPattern'>): string[] {
  const names: string[] = [];
  for (const match of setting.searchFilter.matchAll(/\(\s*([A-Za-z][A-Za-z0-9;.-]*)\s*=\s*\{0\}\s*\)/g)) {
    names.push(match[1]!);
  }
  const rdn = /^\s*([A-Za-z][A-Za-z0-9.-]*)\s*=\s*\{0\}/.exec(setting.userDnPattern);
  if (rdn) names.push(rdn[1]!);
  return [...new Set(names)];
}

const folded = (name: string) => name.trim().toLowerCase();

/**
 * The name of a directory user as the directory spells it: the value of the attribute the user was
 * looked up by (`uid` for `(uid={0})`) that matches what was typed, compared as LDAP compares it
 * (case and surrounding spaces aside). `Lalice`, `LALICE` and ` lalice` are all `lalice`: one entry,
 * one name, one Arca account.
 */
export function canonicalName(
  setting: Pick<LdapConnection, 'searchFilter' | 'userDnPattern'>,
  entry: Entry,
  typed: string,
): string {
  for (const attribute of namingAttributes(setting)) {
    const values = all(entry, attribute)
      .map((v) => v.trim())
      .filter(Boolean);
    const same = values.find((v) => folded(v) === folded(typed));
    if (same) return same;
    if (values.length === 1) return values[0]!;
  }
  return typed.trim();
}

/**
 * Signs a user in against a directory: finds the entry (by the DN pattern, else the search
 * filter), binds as it with the password, and reads its attributes.
 */
export async function signInUser(
  setting: LdapConnection,
  trusted: readonly string[],
  name: string,
  password: string,
): Promise<DirectoryUser> {
  const { baseDn } = splitUrl(setting.ldapUrl);
  // the directory compares names without their surrounding spaces; so does the account they lead to
  name = name.trim();
  // an empty password would be an anonymous bind, which every directory accepts
  if (!password)
    throw new DirectoryError(formatMessage(LDAP_MESSAGES.passwordRefused, { user: name, dn: '' }), 'password');
  return withManager(setting, trusted, async (client) => {
    const candidates: string[] = [];
    if (setting.userDnPattern) {
      candidates.push(underBase(setting.userDnPattern.replaceAll('{0}', escapeDnValue(name)), baseDn));
    }
    if (setting.searchFilter) {
      const found = await search(
        client,
        underBase(setting.searchBase, baseDn),
        setting.searchFilter.replaceAll('{0}', escapeFilterValue(name)),
        setting.searchSubTree,
        ['dn'],
      );
      candidates.push(...found.map((e) => e.dn));
    }
    for (const dn of [...new Set(candidates)]) {
      const entry = (
        await client
          .search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['*', '+'] })
          .catch(() => undefined)
      )?.searchEntries[0];
      if (!entry) continue;
      // the password is checked by binding as the user, on a connection of its own
      const own = await open(setting, trusted);
      try {
        await own.bind(entry.dn, password);
      } catch (error) {
        if (error instanceof InvalidCredentialsError) {
          throw new DirectoryError(
            formatMessage(LDAP_MESSAGES.passwordRefused, { user: name, dn: entry.dn }),
            'password',
            canonicalName(setting, entry, name),
          );
        }
        throw connectFailed(setting.ldapUrl, error);
      } finally {
        await own.unbind().catch(() => undefined);
      }
      return {
        dn: entry.dn,
        email: first(entry, setting.emailAttribute),
        entry,
        name: canonicalName(setting, entry, name),
      };
    }
    throw new DirectoryError(formatMessage(LDAP_MESSAGES.userNotFound, { user: name }), 'unknown');
  });
}

export interface DirectoryGroup {
  name: string;
  dn: string;
  description: string;
}

/** The groups a group setting finds in the directory (all of them, or those of one user). */
export async function directoryGroups(
  setting: LdapConnection,
  trusted: readonly string[],
  groups: LdapGroupSetting,
  user?: DirectoryUser,
): Promise<DirectoryGroup[]> {
  const { baseDn } = splitUrl(setting.ldapUrl);
  const groupBase = underBase(groups.groupBaseDn, baseDn);
  if (groups.strategy === 'HIERARCHICAL' && !user) {
    // the organisational units below the group base are the groups there are
    return withManager(setting, trusted, async (client) =>
      (
        await search(client, groupBase, '(objectClass=organizationalUnit)', groups.subTree, [
          'ou',
          groups.descriptionAttribute,
        ])
      )
        .filter((entry) => entry.dn.toLowerCase() !== groupBase.toLowerCase())
        .map((entry) => ({
          name: first(entry, 'ou'),
          dn: entry.dn,
          description: first(entry, groups.descriptionAttribute),
        }))
        .filter((g) => g.name)
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
  }
  if (groups.strategy === 'HIERARCHICAL' && user) {
    // the organisational units between the user and the group base are its groups
    const parts = user.dn.split(/(?<!\\),/).slice(1);
    return parts
      .map((rdn, index) => ({ rdn, dn: parts.slice(index).join(',') }))
      .filter(
        ({ rdn, dn }) =>
          /^ou=/i.test(rdn) &&
          dn.toLowerCase().endsWith(groupBase.toLowerCase()) &&
          dn.toLowerCase() !== groupBase.toLowerCase(),
      )
      .map(({ rdn, dn }) => ({ name: rdn.slice(3), dn, description: '' }));
  }
  return withManager(setting, trusted, async (client) => {
    const filter = groups.filter || '(objectClass=*)';
    const attributes = [groups.groupNameAttribute, groups.descriptionAttribute].filter(Boolean);
    let entries: Entry[];
    if (!user) {
      entries = await search(client, groupBase, filter, groups.subTree, attributes);
    } else if (groups.strategy === 'STATIC') {
      entries = await search(
        client,
        groupBase,
        `(&${filter.startsWith('(') ? filter : `(${filter})`}(${groups.groupMemberAttribute}=${escapeFilterValue(user.dn)}))`,
        groups.subTree,
        attributes,
      );
    } else {
      // DYNAMIC: the user's entry names its groups
      const named = all(user.entry, groups.groupMemberAttribute).filter((dn) =>
        dn.toLowerCase().endsWith(groupBase.toLowerCase()),
      );
      entries = [];
      for (const dn of named) {
        const found = await client
          .search(dn, { scope: 'base', filter, attributes })
          .then((r) => r.searchEntries)
          .catch(() => []);
        entries.push(...found);
      }
    }
    return entries
      .map((entry) => ({
        name: first(entry, groups.groupNameAttribute),
        dn: entry.dn,
        description: groups.descriptionAttribute ? first(entry, groups.descriptionAttribute) : '',
      }))
      .filter((g) => g.name)
      .sort((a, b) => a.name.localeCompare(b.name));
  });
}
