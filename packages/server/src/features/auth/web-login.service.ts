import { createHash, randomBytes } from 'node:crypto';
import { WEB_LOGIN_LIFETIME_MS, WEB_LOGIN_MESSAGES, type WebLogin } from '@arca/contracts';
import type { Db } from '../../db/database.js';
import {
  answerWebLogin,
  collectWebLogin,
  deleteWebLogin,
  insertWebLogin,
  webLoginByDone,
  webLoginById,
} from './auth.store.js';
import type { UserRow } from '../../db/schema.js';
import { HttpError, notFound } from '../../core/errors.js';
import { findUserById } from '../identity/index.js';

/**
 * Browser sign-in for command-line clients (npm's web login): the client opens a request and
 * polls it with a done id, the user approves its login id in a signed-in console session (with
 * the second factor behind it), and the next poll gets a token made for that user, once. Only
 * SHA-256 of both ids is stored, and no token is stored at all.
 */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const newId = () => randomBytes(24).toString('base64url');
const DENIED = '-';

export interface OpenedWebLogin {
  loginId: string;
  doneId: string;
}

export async function openWebLogin(
  db: Db,
  request: { client: string; hostname: string; sourceIp: string },
  now = Date.now(),
  /** The ids, when the client chose them (a CLI's session): a session used before is refused. */
  ids: OpenedWebLogin = { loginId: newId(), doneId: newId() },
): Promise<OpenedWebLogin> {
  const { loginId, doneId } = ids;
  // requests nobody finished go with the next one
  await insertWebLogin(
    db,
    {
      id_hash: sha256(loginId),
      done_hash: sha256(doneId),
      client: request.client.slice(0, 32),
      hostname: request.hostname.slice(0, 255),
      source_ip: request.sourceIp.slice(0, 64),
      created_at: now,
      expires_at: now + WEB_LOGIN_LIFETIME_MS,
      approved_by: null,
      approved_at: null,
      done_at: null,
    },
    now,
  );
  return { loginId, doneId };
}

/** Whether a request under this login id exists (expired or not). */
export async function webLoginExists(db: Db, loginId: string): Promise<boolean> {
  return (await webLoginById(db, sha256(loginId))) !== undefined;
}

async function live(db: Db, loginId: string, now: number) {
  const row = await webLoginById(db, sha256(loginId));
  if (!row || row.expires_at <= now || row.done_at !== null) throw notFound(WEB_LOGIN_MESSAGES.gone);
  return row;
}

/** A request as the console shows it to the user asked to approve it (also once collected); 404 when gone. */
export async function describeWebLogin(db: Db, loginId: string, viewerIp: string, now = Date.now()): Promise<WebLogin> {
  const row = await webLoginById(db, sha256(loginId));
  if (!row || row.expires_at <= now) throw notFound(WEB_LOGIN_MESSAGES.gone);
  return {
    id: loginId,
    client: row.client,
    hostname: row.hostname,
    sourceIp: row.source_ip,
    viewerIp,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
    status: row.approved_at === null ? 'pending' : row.approved_by === DENIED ? 'denied' : 'approved',
  };
}

/** Approves (for `user`) or denies a pending request; a decided one stays as it was decided (409). */
export async function decideWebLogin(
  db: Db,
  loginId: string,
  user: UserRow,
  approve: boolean,
  now = Date.now(),
): Promise<void> {
  await live(db, loginId, now);
  if (!(await answerWebLogin(db, sha256(loginId), approve ? user.id : DENIED, now)))
    throw new HttpError(409, 'This sign-in was already answered.');
}

/**
 * The client's poll: 'pending' until the request is answered, then the approving user exactly
 * once (the caller makes the token); 403 when denied, 404 when unknown, expired or collected.
 */
export async function pollWebLogin(db: Db, doneId: string, now = Date.now()): Promise<'pending' | UserRow> {
  const row = await webLoginByDone(db, sha256(doneId));
  if (!row || row.expires_at <= now || row.done_at !== null) throw notFound(WEB_LOGIN_MESSAGES.gone);
  if (row.approved_at === null) return 'pending';
  if (row.approved_by === DENIED || row.approved_by === null) {
    await deleteWebLogin(db, row.done_hash);
    throw new HttpError(403, WEB_LOGIN_MESSAGES.denied);
  }
  if (!(await collectWebLogin(db, row.done_hash, now))) throw notFound(WEB_LOGIN_MESSAGES.gone);
  const user = await findUserById(db, row.approved_by);
  if (!user) throw notFound(WEB_LOGIN_MESSAGES.gone);
  return user;
}
