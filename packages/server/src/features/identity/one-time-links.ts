import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';
import { badRequest, conflict } from '../../core/errors.js';
import { sendMail } from '../mail/index.js';
import { findUserById } from './identity.store.js';

/* One-time links: a half-finished two-factor sign-in, a password reset, an invitation. */

export type TokenPurpose = 'mfa-login' | 'reset' | 'invite';

/** How long each kind of one-time token lives. */
export const TOKEN_LIFETIME_MS: Record<TokenPurpose, number> = {
  'mfa-login': 10 * 60_000,
  reset: 60 * 60_000,
  invite: 7 * 24 * 60 * 60_000,
};

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Issues a one-time token; only its SHA-256 is stored. */
export async function issueToken(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  data: Record<string, unknown> = {},
  now = Date.now(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('one_time_tokens')
    .values({
      token_hash: sha256(token),
      user_id: userId,
      purpose,
      data: JSON.stringify(data),
      created_at: now,
      expires_at: now + TOKEN_LIFETIME_MS[purpose],
      used_at: null,
    })
    .execute();
  return token;
}

export interface LiveToken {
  user: UserRow;
  data: Record<string, unknown>;
  hash: string;
}

/** Whether a token of this purpose was issued to the user within the last `withinMs`. */
export async function recentlyIssued(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  withinMs: number,
): Promise<boolean> {
  const row = await db
    .selectFrom('one_time_tokens')
    .select('token_hash')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('created_at', '>', Date.now() - withinMs)
    .executeTakeFirst();
  return row !== undefined;
}

/** A token that exists, has the purpose, is unused and unexpired; undefined otherwise. */
export async function peekToken(
  db: Db,
  token: string | undefined,
  purpose: TokenPurpose,
  now = Date.now(),
): Promise<LiveToken | undefined> {
  if (!token) return undefined;
  const hash = sha256(token);
  const row = await db.selectFrom('one_time_tokens').selectAll().where('token_hash', '=', hash).executeTakeFirst();
  if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= now) return undefined;
  const user = await findUserById(db, row.user_id);
  if (!user) return undefined;
  return { user, data: JSON.parse(row.data) as Record<string, unknown>, hash };
}

/** Marks a token used; false when another request used it first (so it works exactly once). */
export async function consumeToken(db: Db, hash: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes expired and used tokens; run by the cleanup job. */
export async function purgeTokens(db: Db, now = Date.now()): Promise<void> {
  await db
    .deleteFrom('one_time_tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
    .execute();
}

/** Mails a user a link to choose a password (seven days, once). */
export async function sendInvitation(db: Db, user: UserRow, base: string): Promise<void> {
  if (!user.email) throw badRequest('The user has no e-mail address to send the invitation to.');
  if (user.realm !== 'internal') throw conflict('Only internal users set a password.');
  const token = await issueToken(db, user.id, 'invite');
  const link = `${base}/login/invitation?token=${token}`;
  await sendMail(db, {
    to: user.email,
    subject: 'You are invited',
    text: `An administrator created the user ${user.name} for you.\n\nOpen this link within seven days to choose your password:\n${link}\n`,
  });
}

/** Replaces what a live one-time token carries (the wrong codes counted so far). */
export async function setTokenData(db: Db, hash: string, data: Record<string, unknown>): Promise<void> {
  await db
    .updateTable('one_time_tokens')
    .set({ data: JSON.stringify(data) })
    .where('token_hash', '=', hash)
    .execute();
}
