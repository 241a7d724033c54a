import { randomUUID } from 'node:crypto';
import {
  ANONYMOUS_USER,
  USER_MESSAGES,
  USER_NAME_PATTERN,
  formatMessage,
  type UserAnswer,
  type UserBody,
  EMAIL_PATTERN,
} from '@arca/contracts';
import type { OnChange } from '../../core/changes.js';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { credentialsChanged } from '../../core/credentials.js';
import { hashPassword } from '../../core/passwords.js';
import { autoJoinGroups, replaceUserGroups } from '../groups/index.js';
import { getSetting } from '../../core/settings.store.js';
import { deleteUserSessions, findUserByName, insertUser } from '../identity/index.js';
import { adminCount, deleteUserRow, updateUserRow } from './users.store.js';

/** The user rows other features read and write (sign-in, sessions, tokens), through this service. */

const fill = (message: string, name: string) => formatMessage(message, { name });

export function toUserAnswer(row: UserRow, groups: string[]): UserAnswer {
  return {
    name: row.name,
    email: row.email ?? '',
    admin: row.admin === 1,
    profileUpdatable: true,
    disableUIAccess: row.disable_ui_access === 1,
    internalPasswordDisabled: false,
    ...(row.last_login_at ? { lastLoggedIn: new Date(row.last_login_at).toISOString() } : {}),
    realm: row.realm,
    groups,
  };
}

function checkEmail(email: string | undefined): void {
  if (email && !EMAIL_PATTERN.test(email)) throw badRequest(USER_MESSAGES.invalidEmail, 'email');
}

/** The password policy's minimum length (security settings; 8 unless changed). */
export async function checkPassword(db: Db, password: string): Promise<void> {
  const minLength = (await getSetting(db, 'security.policy')).passwordMinLength ?? 8;
  if (password.length < minLength)
    throw badRequest(formatMessage(USER_MESSAGES.passwordTooShort, { n: String(minLength) }), 'password');
}

export async function getUser(db: Db, name: string): Promise<UserRow> {
  const row = await findUserByName(db, name);
  if (!row) throw notFound(fill(USER_MESSAGES.notFound, name));
  return row;
}

/** Creates a user (Artifactory's PUT), or replaces one that exists. */
export async function putUser(
  db: Db,
  name: string,
  body: UserBody,
  options: { invited?: boolean; onCreate?: OnChange<UserRow>; onUpdate?: OnChange<UserRow> } = {},
): Promise<{ row: UserRow; created: boolean }> {
  if (!USER_NAME_PATTERN.test(name)) throw badRequest(USER_MESSAGES.nameFormat, 'name');
  if (name === ANONYMOUS_USER) throw badRequest(fill(USER_MESSAGES.reserved, name));
  checkEmail(body.email);
  const existing = await findUserByName(db, name);
  if (existing) return { row: await updateUser(db, name, body, options.onUpdate), created: false };
  if (options.invited) {
    if (!body.email) throw badRequest(USER_MESSAGES.emailForInvitation, 'email');
  } else {
    if (!body.password) throw badRequest(USER_MESSAGES.passwordRequired, 'password');
    await checkPassword(db, body.password);
  }
  const groups = body.groups ?? (await autoJoinGroups(db));
  const now = Date.now();
  const row: UserRow = {
    id: randomUUID(),
    name,
    email: body.email || null,
    // an invited user has no password until the invitation is accepted
    password_hash: body.password && !options.invited ? await hashPassword(body.password) : null,
    admin: body.admin ? 1 : 0,
    disable_ui_access: body.disableUIAccess ? 1 : 0,
    must_change_password: body.mustChangePassword ? 1 : 0,
    realm: 'internal',
    external_source: '',
    external_subject: null,
    created_at: now,
    last_login_at: null,
    mfa_secret: null,
    mfa_enrolled_at: null,
    mfa_last_step: null,
    password_changed_at: now,
  };
  // one transaction: an unknown group leaves no half-created user behind
  await db.transaction().execute(async (trx) => {
    if (await findUserByName(trx, name)) throw conflict(fill(USER_MESSAGES.nameTaken, name), 'name');
    await insertUser(trx, row);
    await replaceUserGroups(trx, row.id, groups);
    await options.onCreate?.(trx, row);
  });
  return { row, created: true };
}

/** Changes the given fields of a user (Artifactory's POST). */
export async function updateUser(db: Db, name: string, body: UserBody, onChange?: OnChange<UserRow>): Promise<UserRow> {
  const existing = await getUser(db, name);
  checkEmail(body.email);
  if (body.password !== undefined) await checkPassword(db, body.password);
  if (body.admin === false && existing.admin === 1 && (await adminCount(db)) <= 1)
    throw badRequest(USER_MESSAGES.lastAdmin);
  const changes: Partial<UserRow> = {};
  if (body.email !== undefined) changes.email = body.email || null;
  if (body.admin !== undefined) changes.admin = body.admin ? 1 : 0;
  if (body.disableUIAccess !== undefined) changes.disable_ui_access = body.disableUIAccess ? 1 : 0;
  if (body.mustChangePassword !== undefined) changes.must_change_password = body.mustChangePassword ? 1 : 0;
  if (body.password !== undefined) {
    changes.password_hash = await hashPassword(body.password);
    changes.password_changed_at = Date.now();
  }
  const updated = { ...existing, ...changes };
  await db.transaction().execute(async (trx) => {
    if (body.groups !== undefined) await replaceUserGroups(trx, existing.id, body.groups);
    if (Object.keys(changes).length) await updateUserRow(trx, existing.id, changes);
    // a new password ends the user's sessions
    if (changes.password_hash !== undefined) await deleteUserSessions(trx, existing.id);
    await onChange?.(trx, updated);
  });
  // a new password, other groups or fewer rights take effect at once: cached verdicts end
  if (
    body.groups !== undefined ||
    changes.password_hash !== undefined ||
    changes.disable_ui_access === 1 ||
    changes.admin !== undefined
  )
    credentialsChanged(existing.id);
  return updated;
}

export async function deleteUser(db: Db, name: string, actorName: string, onChange?: OnChange<UserRow>): Promise<void> {
  const existing = await getUser(db, name);
  if (existing.name === actorName) throw badRequest(USER_MESSAGES.deleteSelf);
  if (existing.admin === 1 && (await adminCount(db)) <= 1) throw badRequest(USER_MESSAGES.lastAdmin);
  await db.transaction().execute(async (trx) => {
    // a later user of the same name starts with no memberships
    await deleteUserRow(trx, existing);
    await onChange?.(trx, existing);
  });
  credentialsChanged(existing.id);
}
