import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DEPLOYMENT_MESSAGES, PAIRING_TOKEN_SECONDS } from '@arca/contracts';
import { audit, auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { HttpError } from '../../core/errors.js';
import { findUserById } from '../identity/index.js';
import { TOKEN_SCOPE_ADMIN, createAccessToken } from '../tokens/index.js';

const PREFIX = 'arcapair_';
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A pairing token made by an administrator of this deployment: single use, ten minutes. */
export async function issuePairingToken(request: FastifyRequest): Promise<{ token: string; expires_at: string }> {
  if (request.principal.kind !== 'user') throw new HttpError(401, 'Sign in first.');
  const userId = request.principal.user.id;
  const db = request.server.db;
  const token = `${PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = Date.now();
  const expires = now + PAIRING_TOKEN_SECONDS * 1000;
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('pairing_tokens').where('expires_at', '<', now).execute();
    await trx
      .insertInto('pairing_tokens')
      .values({ token_hash: hashOf(token), user_id: userId, created_at: now, expires_at: expires, used_at: null })
      .execute();
    await audit(request, { category: 'token', action: 'create pairing token', target: auditActor(request).actor }, trx);
  });
  return { token, expires_at: new Date(expires).toISOString() };
}

/**
 * A management deployment brings a pairing token: used once (whoever comes second finds it
 * used), it becomes a service token of the administrator who made it, described as the
 * management deployment's, revocable like any token.
 */
export async function exchangePairingToken(
  request: FastifyRequest,
  token: string,
  management: { name: string; url: string },
): Promise<{ access_token: string; token_id: string }> {
  const db = request.server.db;
  const now = Date.now();
  const taken = await db
    .updateTable('pairing_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashOf(token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  const owner = taken && (await findUserById(db, taken.user_id));
  if (!owner || owner.admin !== 1) throw new HttpError(401, DEPLOYMENT_MESSAGES.pairingRefused);
  const { row, token: accessToken } = await createAccessToken(
    db,
    owner,
    {
      description: `Management deployment ${management.name} (${management.url})`.slice(0, 1024),
      expiresIn: 0,
      scope: TOKEN_SCOPE_ADMIN,
    },
    (trx) =>
      recordChange(trx, auditActor(request, owner.name), {
        audit: { category: 'token', action: 'pair management deployment', target: owner.name, after: management },
      }),
    now,
  );
  return { access_token: accessToken, token_id: row.id };
}
