import type {
  DeploymentLocation,
  GeneralSettingsInput,
  HttpSsoSettings,
  LdapGroupSetting,
  LdapSetting,
  MailSettings,
  MemberConfig,
  OidcProvider,
  SamlProvider,
  SsoSettings,
  SecuritySettings,
  SshServerSettings,
} from '@arca/contracts';

/** An LDAP setting as stored: the manager password sealed (empty when there is none). */
export type StoredLdapSetting = Omit<LdapSetting, 'managerPasswordSet'> & { managerPassword: string };

/** A SAML identity provider as stored: its metadata, and what was read from it. */
export type StoredSamlProvider = Omit<SamlProvider, 'certificates' | 'spEntityId' | 'acsUrl' | 'spMetadataUrl'> & {
  certificates: string[];
  updatedAt: number;
};

/** An OpenID Connect provider as stored: the client secret sealed; when it last changed. */
export type StoredOidcProvider = Omit<OidcProvider, 'clientSecretSet' | 'redirectUri'> & {
  clientSecret: string;
  updatedAt: number;
};
import type { Db } from '../db/database.js';
import { bumpConfigGeneration, cachedConfig } from './config-cache.js';

/** Known settings and their defaults. */
export const SETTING_DEFAULTS = {
  'security.anonymousAccess': false as boolean,
  /** Security settings other than anonymous access; missing fields take the configured defaults. */
  'security.policy': {} as Partial<Omit<SecuritySettings, 'anonymousAccess'>>,
  /** SMTP settings; see features/mail. */
  mail: {} as Partial<MailSettings> & { sealedPassword?: string },
  /** The key that signs container registry tokens (base64), made on first use and shared by every node. */
  'registry.tokenKey': '' as string,
  /** The key that seals encrypted passwords (base64), made on first use and shared by every node. */
  'security.passwordKey': '' as string,
  /** The Ed25519 key pair that signs access tokens (PEM), made on first use and shared by every node. */
  'access.signingKey': '' as '' | { kid: string; privateKey: string; publicKey: string },
  /** Which store holds the binaries (recorded at the first start, moved by `arca store migrate --switch`). */
  'store.kind': '' as '' | { type: 'file' | 's3'; since: number },
  /** General settings (server name, URL base, upload limit, date format, logo address, reverse proxy). */
  general: {} as GeneralSettingsInput,
  /** The uploaded logo: its media type and bytes (base64), or none. */
  'general.logo': '' as '' | { type: string; data: string; sha256: string },
  /** The licence issuer's Ed25519 private key (PKCS#8 PEM, sealed), made on first start and shared by every node. */
  'license.issuerKey': '' as string,
  /** The SSH server: on or off, and its port (see features/ssh). */
  'ssh.server': {} as Partial<SshServerSettings>,
  /** The SSH server's host key (OpenSSH private key, sealed), made when the server is first turned on. */
  'ssh.hostKey': '' as string,
  /** LDAP / Active Directory servers, in the order sign-in asks them (see features/directory). */
  'ldap.settings': [] as StoredLdapSetting[],
  /** The group settings that bring directory groups in. */
  'ldap.groups': [] as LdapGroupSetting[],
  /** OpenID Connect providers (see features/sso). */
  'oidc.providers': [] as StoredOidcProvider[],
  /** SAML 2.0 identity providers (see features/sso). */
  'saml.providers': [] as StoredSamlProvider[],
  /** HTTP single sign-on: the header a trusted reverse proxy names the user in. */
  httpSso: {} as Partial<HttpSsoSettings>,
  /** Single sign-on: the provider the login page sends everyone to, if any. */
  sso: { autoRedirectProvider: '' } as SsoSettings,
  /** This deployment's part in an access federation, its peers' tokens sealed (see features/federation). */
  'federation.member': '' as '' | MemberConfig,
  /** Where this deployment is, for the topology map (the others' locations are kept with their registrations). */
  'deployment.location': { city: '', latitude: null, longitude: null } as DeploymentLocation,
};
export type SettingKey = keyof typeof SETTING_DEFAULTS;

export async function getSetting<K extends SettingKey>(db: Db, key: K): Promise<(typeof SETTING_DEFAULTS)[K]> {
  const text = await cachedConfig(db, `setting:${key}`, async () => {
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  });
  // parsed per call: callers may change what they get
  return text === undefined
    ? structuredClone(SETTING_DEFAULTS[key])
    : (JSON.parse(text) as (typeof SETTING_DEFAULTS)[K]);
}

export async function putSetting<K extends SettingKey>(
  db: Db,
  key: K,
  value: (typeof SETTING_DEFAULTS)[K],
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
    .execute();
  await bumpConfigGeneration(db);
}

/**
 * A setting made once and shared by every node (a signing key): `value` is written unless another
 * process wrote one first; answers the one that stayed.
 */
export async function putSettingOnce<K extends SettingKey>(
  db: Db,
  key: K,
  value: (typeof SETTING_DEFAULTS)[K],
): Promise<(typeof SETTING_DEFAULTS)[K]> {
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_at: Date.now() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  // every process forgets the empty value it may have cached
  await bumpConfigGeneration(db);
  return getSetting(db, key);
}

/**
 * The outbound allow-list in force: `ARCA_OUTBOUND_ALLOWED_HOSTS` and the administrators' list in
 * the security settings (kept here, not in core/outbound.ts, so that the webhooks' posting thread
 * loads the request code without the database's).
 */
export async function allowedOutboundHosts(db: Db, configured: readonly string[]): Promise<string[]> {
  const policy = await getSetting(db, 'security.policy');
  return [...configured, ...(policy.outboundAllowedHosts ?? [])];
}

/** The server name page titles show: the general settings', else `ARCA_SERVER_NAME`, else the default. */
export async function serverNameOf(db: Db, configured: string | undefined, fallback: string): Promise<string> {
  return (await getSetting(db, 'general')).serverName || configured || fallback;
}
