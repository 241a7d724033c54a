import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Timestamps are epoch milliseconds and flags are 0/1 integers, so that one
 * migration serves SQLite and PostgreSQL alike.
 */
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
}

export interface NodesTable {
  node_id: string;
  host: string;
  version: string;
  services: string;
  started_at: number;
  last_heartbeat: number;
}

export interface LicensesTable {
  id: string;
  key_text: string;
  edition: string;
  licensee: string;
  issued_at: number;
  expires_at: number | null;
  issuer: string;
  installed_at: number;
  installed_by: string;
  active: number;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

export interface AdoptionMetricsTable {
  feature_name: string;
  action: string;
  total: number;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  nodes: NodesTable;
  licenses: LicensesTable;
  settings: SettingsTable;
  adoption_metrics: AdoptionMetricsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NodeRow = Selectable<NodesTable>;
export type LicenseRow = Selectable<LicensesTable>;
export type NewLicense = Insertable<LicensesTable>;
export type { Generated };
