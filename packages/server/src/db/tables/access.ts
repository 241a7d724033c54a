import type { ColumnType, Generated } from 'kysely';

/** Users, groups, permissions, tokens, sessions, projects and the sign-in flows' records. */

export interface UsersTable {
  id: string;
  name: string;
  email: string | null;
  password_hash: string | null;
  admin: number;
  disable_ui_access: number;
  must_change_password: number;
  realm: string;
  created_at: number;
  last_login_at: number | null;
  mfa_secret: string | null;
  mfa_enrolled_at: number | null;
  password_changed_at: number | null;
  mfa_last_step: number | null;
  /** For a user of an external realm: the LDAP setting (or provider) it signs in through; '' otherwise. */
  external_source: ColumnType<string, string | undefined, string>;
  /** For a user of an OpenID provider: `<issuer> <sub>`, the identity it is tied to (never a changeable claim). */
  external_subject: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a leaked database does not leak live sessions. */
  id: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  idle_timeout_ms: number;
  remember_me: number;
}

export interface LoginFailuresTable {
  user_name: string;
  failures: number;
  window_start: number;
  locked_until: number | null;
  /** What the last failure was: a wrong 'password' or a wrong second-factor code ('otp'). */
  cause: Generated<string>;
}

export interface GroupsTable {
  name: string;
  description: string;
  auto_join: number;
  admin_privileges: number;
  /** Security scanning roles of the members (0/1). */
  watch_manager: number;
  policy_manager: number;
  policy_viewer: number;
  realm: string;
  created_at: number;
  updated_at: number;
}

export interface GroupMembersTable {
  group_name: string;
  user_id: string;
}

/** `resources` is JSON: `{ repo?, build?, releaseBundle? }`, each `{ repositories, includes, excludes }`. */
export interface PermissionTargetsTable {
  name: string;
  resources: string;
  created_at: number;
  updated_at: number;
}

/** Who may do what on one resource kind of a target; `actions` is a comma-separated list. */
export interface PermissionGrantsTable {
  target_name: string;
  resource: string;
  principal_type: string;
  principal_name: string;
  actions: string;
}

/** API keys (`kind` 'api_key', one per user) and access tokens; only the SHA-256 is stored. */
export interface AccessTokensTable {
  id: string;
  user_id: string;
  kind: string;
  token_hash: string;
  description: string;
  scope: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  /** SHA-256 of the refresh token of a refreshable access token. */
  refresh_hash: string | null;
  /** An API key sealed with the deployment's key, so that its owner can read it back; null for tokens. */
  sealed: string | null;
}

/**
 * A command-line client's browser sign-in (npm's web login): the client polls with the done id
 * while a signed-in user approves the login id in the console. Only SHA-256 of both ids is kept.
 */
export interface WebLoginsTable {
  id_hash: string;
  done_hash: string;
  client: string;
  hostname: string;
  source_ip: string;
  created_at: number;
  expires_at: number;
  approved_by: string | null;
  approved_at: number | null;
  done_at: number | null;
}

export interface OneTimeTokensTable {
  token_hash: string;
  user_id: string;
  purpose: string;
  data: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ProjectsTable {
  key: string;
  display_name: string;
  description: string;
  created_at: number;
  updated_at: number;
}

export interface ProjectMembersTable {
  project_key: string;
  principal_type: string;
  principal_name: string;
  role: string;
}

/** An SSH public key a user registered: it signs the user in to the SSH server. */
export interface SshKeysTable {
  id: string;
  user_id: string;
  title: string;
  algorithm: string;
  /** `SHA256:` and the unpadded base64 of the key's SHA-256, as OpenSSH prints it. */
  fingerprint: string;
  /** The OpenSSH line (`<type> <base64>`), without its comment. */
  public_key: string;
  created_at: number;
  last_used_at: number | null;
}

/** A sign-in request sent to an identity provider, until its answer comes back (once). */
export interface SsoRequestsTable {
  state_hash: string;
  provider: string;
  /** JSON: nonce, PKCE verifier, where the console goes after. */
  data: string;
  expires_at: number;
}

/** A SAML assertion taken once: kept until its validity ends, so a replay of it is refused. */
export interface SamlAssertionsTable {
  id: string;
  expires_at: number;
}

/** An application registered as an OAuth 2.0 client; only its secret's SHA-256 is kept. */
export interface OauthClientsTable {
  id: string;
  client_id: string;
  secret_hash: string;
  name: string;
  type: string;
  description: string;
  callback_url: string;
  platform_base_url: string;
  created_at: number;
  created_by: string;
}

/** A user's consent to an application acting on their behalf. */
export interface OauthGrantsTable {
  client_id: string;
  user_id: string;
  scope: string;
  granted_at: number;
}

/** An authorisation code, by its SHA-256: single use, short-lived, bound to the PKCE challenge. */
export interface OauthCodesTable {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  scope: string;
  expires_at: number;
  used_at: number | null;
}

/** Which access tokens an application holds for which user (revoked with the grant). */
export interface OauthClientTokensTable {
  token_id: string;
  client_id: string;
  user_id: string;
}

/** A value the console keeps for a user (the onboarding's flags), as JSON text. */
export interface UserCustomDataTable {
  user_name: string;
  data_key: string;
  value: string;
  updated_at: number;
}
