import type { Db } from '../../db/database.js';
import type { AccessTokenRow } from '../../db/schema.js';

/** The rows of the tokens feature: access tokens and API keys (`access_tokens`, by kind), with their owners. */

/** Stores a token, replacing another (a refresh) in the same transaction. */
export async function insertToken(trx: Db, row: AccessTokenRow, replaces?: string): Promise<void> {
  if (replaces) await trx.deleteFrom('access_tokens').where('id', '=', replaces).execute();
  await trx.insertInto('access_tokens').values(row).execute();
}

/** The token a refresh token belongs to, with its owner. */
export function tokenByRefreshHash(db: Db, refreshHash: string, kind: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select([
      't.id as token_id',
      't.token_hash',
      't.description as token_description',
      't.scope as token_scope',
      't.created_at as token_created_at',
      't.expires_at as token_expires_at',
    ])
    .where('t.refresh_hash', '=', refreshHash)
    .where('t.kind', '=', kind)
    .executeTakeFirst();
}

/** The id of a token by its secret's hash (of one owner, when given). */
export async function tokenIdByHash(db: Db, hash: string, kind: string, ownerId?: string) {
  let query = db.selectFrom('access_tokens').select('id').where('token_hash', '=', hash).where('kind', '=', kind);
  if (ownerId) query = query.where('user_id', '=', ownerId);
  return (await query.executeTakeFirst())?.id;
}

/** Tokens of one kind with their owners' names (of one owner, or one token, when given), newest first. */
export function tokensWithOwners(db: Db, kind: string, filter: { userId?: string; id?: string } = {}) {
  let query = db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('t')
    .select('u.name as user_name')
    .where('t.kind', '=', kind);
  if (filter.userId) query = query.where('t.user_id', '=', filter.userId);
  if (filter.id) query = query.where('t.id', '=', filter.id);
  return query.orderBy('t.created_at', 'desc').execute();
}

export async function deleteToken(trx: Db, id: string): Promise<void> {
  await trx.deleteFrom('access_tokens').where('id', '=', id).execute();
}

/** A user's token of one kind (the API key: one per user). */
export function userToken(db: Db, userId: string, kind: string): Promise<AccessTokenRow | undefined> {
  return db
    .selectFrom('access_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
}

/** Removes a user's tokens of one kind; answers whether there were any. */
export async function deleteUserTokens(trx: Db, userId: string, kind: string): Promise<boolean> {
  const result = await trx
    .deleteFrom('access_tokens')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The token a secret's hash names, with its owner, in one indexed read. */
export function tokenByHash(db: Db, hash: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('u')
    .select([
      't.id as token_id',
      't.kind as token_kind',
      't.scope as token_scope',
      't.expires_at as token_expires_at',
      't.last_used_at as token_last_used_at',
    ])
    .where('t.token_hash', '=', hash)
    .executeTakeFirst();
}

export async function touchToken(db: Db, id: string, at: number): Promise<void> {
  await db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
}
