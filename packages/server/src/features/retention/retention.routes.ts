import {
  PREVIEW_PAGE,
  PREVIEW_PAGE_MAX,
  RETENTION_MESSAGES,
  archivePolicyBodySchema,
  archivePolicySchema,
  archiveRestoreBodySchema,
  archiveSearchAnswerSchema,
  cronTimeAnswerSchema,
  executionItemSchema,
  executionSchema,
  executionsAnswerSchema,
  formatMessage,
  previewAnswerSchema,
  searchCriteriaFormSchema,
  storageInfoSchema,
} from '@arca/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditActor } from '../../core/audit.js';
import { badRequest } from '../../core/errors.js';
import { listRepositories } from '../repositories/index.js';
import { searchArchive, storageInfo } from './retention.archive.js';
import type { Archive } from './retention.jobs.js';
import { formToAql } from './retention.criteria.js';
import { destinationOf, executionItems, listExecutions } from './retention.runs.js';
import {
  checkCron,
  checkRunnable,
  deletePolicy,
  getPolicy,
  listPolicies,
  policyView,
  previewPolicy,
  savePolicy,
} from './retention.policies.js';

const fill = formatMessage;
const keyParams = z.object({ key: z.string().min(1).max(200) });
const DAY_MS = 86_400_000;
/** Spec part 2 §9: the cold-storage figures cover the last month unless asked otherwise. */
const MONTH_MS = 30 * DAY_MS;
const range = z.object({
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
const page = z.object({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(PREVIEW_PAGE_MAX).default(PREVIEW_PAGE),
});

/**
 * A policy's calls (spec part 2 §7.8): under the console's base `/ui/retention`, and where
 * Artifactory's REST API has them (`/artifactory/api/retention`) for scripts. Administrators only.
 */
export function policyRoutes(base: string): FastifyPluginAsyncZod<{ archive: Archive }> {
  return async (app, { archive }) => {
    const admin = { access: 'admin' } as const;
    app.get(
      `${base}/archive/policies`,
      { config: admin, schema: { response: { 200: z.array(archivePolicySchema) } } },
      async () => listPolicies(app.db),
    );
    app.get(
      `${base}/archive/policies/:key`,
      { config: admin, schema: { params: keyParams, response: { 200: archivePolicySchema } } },
      async (request) => policyView(app.db, await getPolicy(app.db, request.params.key)),
    );
    // a new policy: POST, its key in the path or the body; an update: PUT with its key
    for (const url of [`${base}/archive/policies`, `${base}/archive/policies/:key`]) {
      app.post(
        url,
        { config: admin, schema: { body: archivePolicyBodySchema, response: { 201: archivePolicySchema } } },
        async (request, reply) => {
          const key = (request.params as { key?: string }).key;
          const body = key && !request.body.key ? { ...request.body, key } : request.body;
          if (key && body.key !== key)
            throw badRequest(fill(RETENTION_MESSAGES.keyMismatch, { key: body.key, path: key }));
          return reply.status(201).send(await savePolicy(app.db, auditActor(request), body, { create: true }));
        },
      );
    }
    app.put(
      `${base}/archive/policies/:key`,
      {
        config: admin,
        schema: { params: keyParams, body: archivePolicyBodySchema, response: { 200: archivePolicySchema } },
      },
      async (request) =>
        savePolicy(app.db, auditActor(request), request.body, { create: false, key: request.params.key }),
    );
    app.delete(
      `${base}/archive/policies/:key`,
      { config: admin, schema: { params: keyParams } },
      async (request, reply) => {
        await deletePolicy(app.db, auditActor(request), request.params.key);
        return reply.status(204).send();
      },
    );
    app.post(
      `${base}/archive/policies/preview`,
      {
        config: admin,
        schema: {
          querystring: page,
          body: archivePolicyBodySchema.pick({ aqlQuery: true, searchCriteriaForm: true }),
          response: { 200: previewAnswerSchema },
        },
      },
      async (request) => previewPolicy(app.db, request.body, request.query),
    );
    app.post(
      `${base}/archive/policies/convertToAql`,
      {
        config: admin,
        schema: {
          body: z.object({ searchCriteriaForm: searchCriteriaFormSchema }),
          response: { 200: z.object({ aqlQuery: z.string() }) },
        },
      },
      async (request) => ({ aqlQuery: formToAql(request.body.searchCriteriaForm) }),
    );
    app.post(
      `${base}/archive/policies/:key/trigger`,
      { config: admin, schema: { params: keyParams, response: { 202: executionSchema } } },
      async (request, reply) => {
        const policy = await getPolicy(app.db, request.params.key);
        checkRunnable(policy);
        return reply.status(202).send(await archive.runner.startArchive(policy, auditActor(request), 'TRIGGERED'));
      },
    );
    app.post(
      `${base}/archive/policies/:key/stop`,
      { config: admin, schema: { params: keyParams } },
      async (request, reply) => {
        await getPolicy(app.db, request.params.key);
        await archive.runner.stopPolicy(request.params.key, auditActor(request));
        return reply.status(202).send({ message: fill(RETENTION_MESSAGES.stopping, { key: request.params.key }) });
      },
    );
  };
}

/** The console's other retention calls: executions, restore, archive search, figures, cron check. */
export const retentionConsoleRoutes: FastifyPluginAsyncZod<{ archive: Archive }> = async (app, { archive }) => {
  const admin = { access: 'admin' } as const;
  for (const kind of ['archive', 'restore'] as const) {
    app.get(
      `/ui/retention/${kind}/executions`,
      { config: admin, schema: { querystring: range, response: { 200: executionsAnswerSchema } } },
      async (request) => {
        const to = request.query.to ?? Date.now();
        const from = request.query.from ?? to - 7 * DAY_MS;
        return { executions: await listExecutions(app.db, kind, from, to) };
      },
    );
  }
  app.get(
    '/ui/retention/executions/:id/items',
    {
      config: admin,
      schema: {
        params: z.object({ id: z.string().uuid() }),
        querystring: page.extend({ state: z.enum(['pending', 'done', 'failed', 'skipped']).optional() }),
        response: { 200: z.object({ items: z.array(executionItemSchema), total: z.number() }) },
      },
    },
    async (request) =>
      executionItems(app.db, request.params.id, request.query.state, {
        offset: request.query.offset,
        limit: request.query.limit,
      }),
  );
  app.post(
    '/ui/retention/restore',
    { config: admin, schema: { body: archiveRestoreBodySchema, response: { 202: executionSchema } } },
    async (request, reply) => {
      const body = request.body;
      if (!body.itemsToRestore.length) throw badRequest(RETENTION_MESSAGES.restoreNothing);
      if (!body.restoreToOriginal && !body.centralDestinationPath)
        throw badRequest(RETENTION_MESSAGES.restoreCentralRequired);
      for (const destination of [body.fallbackDestinationPath, body.centralDestinationPath]) {
        if (destination && !destinationOf(destination)) throw badRequest(RETENTION_MESSAGES.restoreDestination);
      }
      const execution = await archive.runner.startRestore(
        body.itemsToRestore,
        {
          restoreToOriginal: body.restoreToOriginal,
          fallbackDestinationPath: body.fallbackDestinationPath,
          centralDestinationPath: body.centralDestinationPath,
        },
        auditActor(request),
      );
      return reply.status(202).send(execution);
    },
  );
  app.post(
    '/ui/retention/search',
    { config: admin, schema: { response: { 200: archiveSearchAnswerSchema } } },
    async (request) => {
      const body = request.body;
      return searchArchive(app.db, typeof body === 'string' ? body : JSON.stringify(body ?? {}));
    },
  );
  app.get(
    '/ui/retention/archive/storageinfo',
    { config: admin, schema: { querystring: range, response: { 200: storageInfoSchema } } },
    async (request) => {
      const to = request.query.to ?? Date.now();
      const from = request.query.from ?? to - MONTH_MS;
      return storageInfo(app.db, archive.cold, from, to);
    },
  );
  app.get(
    '/ui/retention/repositories',
    {
      config: admin,
      schema: {
        response: {
          200: z.object({
            repoTypesList: z.array(z.object({ repoKey: z.string(), repoType: z.string(), packageType: z.string() })),
          }),
        },
      },
    },
    async () => ({
      repoTypesList: (await listRepositories(app.db))
        .filter((r) => r.rclass === 'local')
        .map((r) => ({ repoKey: r.key, repoType: r.rclass, packageType: r.package_type })),
    }),
  );
  app.get(
    '/ui/crontime',
    {
      config: admin,
      schema: {
        querystring: z.object({
          cron: z.string().default(''),
          isReplication: z.enum(['true', 'false']).default('false'),
        }),
        response: { 200: cronTimeAnswerSchema },
      },
    },
    async (request) => ({
      valid: true as const,
      nextRuns: checkCron(request.query.cron, request.query.isReplication === 'true'),
    }),
  );
};
