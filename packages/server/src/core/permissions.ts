import type { FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@arca/contracts';
import type { Db } from '../db/database.js';
import type { Principal } from '../features/auth/auth.service.js';
import { HttpError } from './errors.js';
import { getSetting } from './settings.store.js';

/** What a caller wants to do with a repository path. */
export type Action = 'read' | 'annotate' | 'deploy' | 'delete' | 'manage';

/**
 * The one authorisation function every repository and artifact route calls. Admins may do
 * everything; the anonymous user may read when anonymous access is on. Permission targets for
 * other users plug in here.
 */
export async function isAllowed(
  db: Db,
  principal: Principal,
  action: Action,
  _repoKey: string,
  _path: string,
): Promise<boolean> {
  if (principal.kind === 'user') return principal.user.admin === 1;
  return action === 'read' && (await getSetting(db, 'security.anonymousAccess'));
}

/** Throws 401 for an anonymous caller and 403 for a signed-in one when the action is not allowed. */
export async function requirePermission(
  request: FastifyRequest,
  action: Action,
  repoKey: string,
  path = '',
): Promise<void> {
  if (await isAllowed(request.server.db, request.principal, action, repoKey, path)) return;
  if (request.principal.kind === 'anonymous') throw new HttpError(401, AUTH_MESSAGES.loginRequired);
  throw new HttpError(403, `You do not have ${action} permission on '${repoKey}${path ? `/${path}` : ''}'.`);
}

/** Display name of the caller, recorded as created-by / deleted-by. */
export function actorName(principal: Principal): string {
  return principal.kind === 'user' ? principal.user.name : 'anonymous';
}
