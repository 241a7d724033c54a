import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  RELEASE_BUNDLE_MESSAGES,
  formatMessage,
  type Environment,
  type environmentBodySchema,
  type environmentUpdateSchema,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { EnvironmentsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { recordChange } from '../../core/changes.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { actorName } from '../../core/principals.js';
import { findRepository } from '../repositories/index.js';
import {
  deleteEnvironment as deleteEnvironmentRows,
  environmentRepositories,
  environments,
  findEnvironment,
  insertEnvironment,
  nextEnvironmentPosition,
  promotionsIn,
  setEnvironmentRepositories,
  updateEnvironment as updateEnvironmentRow,
} from './release-bundles.store.js';

/*
 * Environments: the stages a release goes through (DEV, QA, PROD, and the administrator's own),
 * in order, each with the local repositories that promoting a bundle version there copies into.
 */

const fill = formatMessage;

function answerOf(row: EnvironmentsTable, repositories: string[]): Environment {
  return {
    name: row.name,
    description: row.description,
    position: Number(row.position),
    repositories,
    created: new Date(Number(row.created_at)).toISOString(),
    created_by: row.created_by,
  };
}

export async function listEnvironments(db: Db): Promise<Environment[]> {
  const repositories = await environmentRepositories(db);
  return (await environments(db)).map((row) => answerOf(row, repositories.get(row.name) ?? []));
}

export async function getEnvironment(db: Db, name: string): Promise<Environment> {
  const row = await findEnvironment(db, name);
  if (!row) throw notFound(fill(RELEASE_BUNDLE_MESSAGES.environmentNotFound, { name }));
  return answerOf(row, (await environmentRepositories(db, name)).get(name) ?? []);
}

/** The repositories given, each an existing local repository (400 naming the first that is not). */
async function checkedRepositories(db: Db, keys: string[]): Promise<string[]> {
  const unique = [...new Set(keys)];
  for (const key of unique) {
    const repo = await findRepository(db, key);
    if (!repo || repo.rclass !== 'local') throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.notLocalRepository, { key }));
  }
  return unique.sort();
}

export async function createEnvironment(
  request: FastifyRequest,
  body: z.infer<typeof environmentBodySchema>,
): Promise<Environment> {
  const { db } = request.server;
  if (await findEnvironment(db, body.name))
    throw conflict(fill(RELEASE_BUNDLE_MESSAGES.environmentExists, { name: body.name }));
  const repositories = await checkedRepositories(db, body.repositories);
  const row: EnvironmentsTable = {
    name: body.name,
    description: body.description,
    position: await nextEnvironmentPosition(db),
    created_at: Date.now(),
    created_by: actorName(request.principal),
  };
  await db.transaction().execute(async (trx) => {
    await insertEnvironment(trx, row);
    await setEnvironmentRepositories(trx, row.name, repositories);
    await recordChange(trx, auditActor(request), {
      audit: { category: 'release', action: 'create', target: `environment ${row.name}`, after: { repositories } },
    });
  });
  return answerOf(row, repositories);
}

export async function updateEnvironment(
  request: FastifyRequest,
  name: string,
  body: z.infer<typeof environmentUpdateSchema>,
): Promise<Environment> {
  const { db } = request.server;
  const before = await getEnvironment(db, name);
  const repositories = await checkedRepositories(db, body.repositories);
  await db.transaction().execute(async (trx) => {
    await updateEnvironmentRow(trx, name, body.description);
    await setEnvironmentRepositories(trx, name, repositories);
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'release',
        action: 'update',
        target: `environment ${name}`,
        before: { description: before.description, repositories: before.repositories },
        after: { description: body.description, repositories },
      },
    });
  });
  return getEnvironment(db, name);
}

/** Deletes an environment; refused while promotion records name it (they are the release's history). */
export async function deleteEnvironment(request: FastifyRequest, name: string): Promise<void> {
  const { db } = request.server;
  await getEnvironment(db, name);
  if ((await promotionsIn(db, name)) > 0) throw conflict(fill(RELEASE_BUNDLE_MESSAGES.environmentInUse, { name }));
  await db.transaction().execute(async (trx) => {
    await deleteEnvironmentRows(trx, name);
    await recordChange(trx, auditActor(request), {
      audit: { category: 'release', action: 'delete', target: `environment ${name}` },
    });
  });
}
