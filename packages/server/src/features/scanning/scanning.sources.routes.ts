import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { advisorySourceBody } from '@arca/contracts';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { runSource } from './scanning.sources.js';
import {
  deleteSource,
  findSource,
  insertSource,
  listSources,
  updateSource,
  type AdvisorySourceRow,
} from './scanning.sources.store.js';

const nameParams = z.object({ name: z.string().min(1).max(64) });
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

const sourceAnswer = z.object({
  name: z.string(),
  url: z.string(),
  interval_hours: z.number(),
  enabled: z.boolean(),
  author: z.string(),
  created: z.string(),
  last_run: z.string().nullable(),
  last_outcome: z.string().nullable(),
  last_message: z.string(),
});
const show = (row: AdvisorySourceRow): z.infer<typeof sourceAnswer> => ({
  name: row.name,
  url: row.url,
  interval_hours: row.interval_hours,
  enabled: row.enabled === 1,
  author: row.created_by,
  created: iso(row.created_at)!,
  last_run: iso(row.last_run_at),
  last_outcome: row.last_outcome,
  last_message: row.last_message,
});

/**
 * Advisory sources (`/xray/api/v1/advisories/sources`): URLs of OSV exports that are fetched and
 * imported every so many hours, or now on request, under the outbound policy (a host it refuses
 * makes the run fail, saying why). Administrators; every change is audited.
 */
export async function advisorySourceRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'admin' as const };
  const base = '/xray/api/v1/advisories/sources';
  const sourceOrThrow = async (name: string) => {
    const row = await findSource(app.db, name);
    if (!row) throw notFound(`Advisory source '${name}' does not exist.`);
    return row;
  };
  app.get(
    base,
    { config, schema: { summary: 'The advisory sources', response: { 200: z.array(sourceAnswer) } } },
    async () => (await listSources(app.db)).map(show),
  );

  app.post(
    base,
    {
      config,
      schema: { summary: 'Adds an advisory source', body: advisorySourceBody, response: { 201: sourceAnswer } },
    },
    async (request, reply) => {
      const body = request.body;
      const row: AdvisorySourceRow = {
        name: body.name,
        url: body.url,
        interval_hours: body.interval_hours,
        enabled: body.enabled ? 1 : 0,
        created_at: Date.now(),
        created_by: auditActor(request).actor,
        last_run_at: null,
        last_outcome: null,
        last_message: '',
        etag: '',
        last_modified: '',
      };
      await app.db.transaction().execute(async (trx) => {
        if (await findSource(trx, body.name)) throw conflict(`Advisory source '${body.name}' already exists.`, 'name');
        await insertSource(trx, row);
        await audit(
          request,
          { category: 'security', action: 'create advisory source', target: body.name, after: body },
          trx,
        );
      });
      return reply.status(201).send(show(row));
    },
  );

  app.put(
    `${base}/:name`,
    {
      config,
      schema: {
        summary: 'Changes an advisory source',
        params: nameParams,
        body: advisorySourceBody,
        response: { 200: sourceAnswer },
      },
    },
    async (request) => {
      const { name } = request.params;
      if (request.body.name !== name) throw badRequest('An advisory source keeps its name.', 'name');
      const before = show(await sourceOrThrow(name));
      const urlChanged = before.url !== request.body.url;
      await app.db.transaction().execute(async (trx) => {
        await updateSource(trx, name, {
          url: request.body.url,
          interval_hours: request.body.interval_hours,
          enabled: request.body.enabled ? 1 : 0,
          // another URL: what the old one said about its content says nothing about the new one
          ...(urlChanged ? { etag: '', last_modified: '' } : {}),
        });
        await audit(
          request,
          { category: 'security', action: 'update advisory source', target: name, before, after: request.body },
          trx,
        );
      });
      return show(await sourceOrThrow(name));
    },
  );

  app.delete(
    `${base}/:name`,
    { config, schema: { summary: 'Removes an advisory source', params: nameParams } },
    async (request, reply) => {
      const { name } = request.params;
      const before = show(await sourceOrThrow(name));
      await app.db.transaction().execute(async (trx) => {
        await deleteSource(trx, name);
        await audit(request, { category: 'security', action: 'delete advisory source', target: name, before }, trx);
      });
      return reply.status(204).send();
    },
  );

  app.post(
    `${base}/:name/run`,
    {
      config,
      schema: {
        summary: 'Fetches and imports an advisory source now',
        params: nameParams,
        response: { 200: sourceAnswer },
      },
    },
    async (request) => {
      const source = await sourceOrThrow(request.params.name);
      const run = await runSource(app, source);
      await audit(request, {
        category: 'security',
        action: 'run advisory source',
        target: source.name,
        after: { outcome: run.outcome, message: run.message },
      });
      return show(await sourceOrThrow(source.name));
    },
  );
}
