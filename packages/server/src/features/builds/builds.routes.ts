import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  ALL_PROJECTS_CONTEXT,
  AUTH_MESSAGES,
  BUILD_INFO_REPO,
  buildDiffSchema,
  buildInfoSchema,
  buildListAnswerSchema,
  buildPromotionAnswerSchema,
  buildPromotionSchema,
  buildRunAnswerSchema,
  buildRunsAnswerSchema,
  projectScopeSchema,
} from '@arca/contracts';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js';
import { actorName } from '../../core/principals.js';
import { isAllowed } from '../../core/permissions.js';
import { repoContent } from '../artifacts/index.js';
import {
  buildDocument,
  buildRun,
  buildRuns,
  diffBuilds,
  mayOnBuild,
  publishBuild,
  storeBuildDocument,
  storedDocument,
  type BuildInfo,
} from './builds.service.js';
import { baseUrlOf } from '../../core/base-url.js';
import { artifactSha1s, buildNames, deleteRun, insertPromotion, renameRun } from './builds.store.js';

const base = '/artifactory/api/build';

/** The project a listing is narrowed to; none for all projects. */
export const projectOf = (query: { projectKey?: string | undefined; project?: string | undefined }) => {
  const key = query.projectKey ?? query.project;
  return key && key !== ALL_PROJECTS_CONTEXT.key ? key : undefined;
};

/** `?project=` (Artifactory's REST) or `?projectKey=` (the console's project scope). */
export const projectScope = projectScopeSchema.extend({ project: z.string().max(128).optional() });

/**
 * The build names the caller may read (of one project, when given), each with its newest run and
 * how many runs it has — newest run's project being the build's.
 */
export async function readableBuilds(request: FastifyRequest, project?: string) {
  const { db } = request.server;
  const answer = [];
  for (const name of await buildNames(db)) {
    if (!(await mayOnBuild(request, 'read', name))) continue;
    const runs = await buildRuns(db, name);
    const last = runs[0]!;
    if (project !== undefined && last.project !== project) continue;
    answer.push({ name, lastNumber: last.number, lastStarted: last.started, runs: runs.length, project: last.project });
  }
  return answer;
}

const NO_RIGHT = 'You may not do this with this build.';

/** Build names as clients put them in the address (`my%2Fbuild` for a name with a slash). */
const decoded = (value: string) => decodeURIComponent(value);
/** A run's address: the build's name and number as the path carries them. */
const runParams = z.object({ name: z.string().min(1), number: z.string().min(1) });

async function requireOnBuild(
  request: FastifyRequest,
  action: 'read' | 'annotate' | 'deploy' | 'delete' | 'manage',
  name: string,
): Promise<void> {
  if (await mayOnBuild(request, action, name)) return;
  // a build the caller may not even read is one that does not exist, for him
  if (action !== 'read' && (await mayOnBuild(request, 'read', name))) throw forbidden(NO_RIGHT);
  throw absent(request, `No build was found for build name: ${name}`);
}

/** What a caller who may not see something is told: sign in (anonymous), or that it does not exist. */
const absent = (request: FastifyRequest, message: string) =>
  request.principal.kind === 'anonymous' ? unauthorized(AUTH_MESSAGES.loginRequired) : notFound(message);

/** The checksums of the files a promotion moves: the run's artifacts, and its dependencies of the scopes asked. */
function promotedChecksums(doc: BuildInfo, body: z.infer<typeof buildPromotionSchema>): string[] {
  const scoped = (scopes: string[] | undefined) =>
    !body.scopes?.length || (scopes ?? []).some((scope) => body.scopes!.includes(scope));
  const files = (doc.modules ?? []).flatMap((m) => [
    ...(body.artifacts !== false ? (m.artifacts ?? []) : []),
    ...(body.dependencies ? (m.dependencies ?? []).filter((d) => scoped(d.scopes)) : []),
  ]);
  return [...new Set(files.map((f) => f.sha1?.toLowerCase()).filter((s): s is string => Boolean(s)))];
}

/** Artifactory's build API: publish, list, read, diff, promote, delete and rename build runs. */
export const buildsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.put(
    base,
    {
      config: { access: 'user' },
      bodyLimit: 32 * 1024 * 1024,
      schema: {
        summary: 'Publish build info as JFrog CLI and CI plug-ins send it; 204 when stored',
        querystring: z.object({ project: z.string().max(128).optional() }),
        body: buildInfoSchema,
      },
    },
    async (request, reply) => {
      await publishBuild(request, request.body, request.query.project);
      return reply.status(204).send();
    },
  );

  app.get(
    base,
    {
      config: { access: 'public' },
      schema: {
        summary: 'Build names the caller may read, each with its newest start',
        querystring: projectScope,
        response: { 200: buildListAnswerSchema },
      },
    },
    async (request) => {
      const builds = (await readableBuilds(request, projectOf(request.query))).map((b) => ({
        uri: `/${encodeURIComponent(b.name)}`,
        lastStarted: b.lastStarted,
      }));
      // none yet is an empty list, as Artifactory answers it (a client iterating it then does nothing)
      if (!builds.length && request.principal.kind === 'anonymous') throw absent(request, 'No builds were found');
      return { builds, uri: `${baseUrlOf(request)}${base}` };
    },
  );

  app.get(
    `${base}/:name`,
    {
      config: { access: 'public' },
      schema: {
        summary: "A build's runs, newest first",
        params: z.object({ name: z.string().min(1) }),
        response: { 200: buildRunsAnswerSchema },
      },
    },
    async (request) => {
      const name = decoded(request.params.name);
      const runs = (await mayOnBuild(request, 'read', name)) ? await buildRuns(db, name) : [];
      if (!runs.length) throw absent(request, `No build was found for build name: ${name}`);
      return {
        buildsNumbers: runs.map((r) => ({ uri: `/${encodeURIComponent(r.number)}`, started: r.started })),
        uri: `${baseUrlOf(request)}${base}/${encodeURIComponent(name)}`,
      };
    },
  );

  app.get(
    `${base}/:name/:number`,
    {
      config: { access: 'public' },
      schema: {
        summary: 'One run with its document and promotions (`statuses`); with `?diff=`, what changed from that run',
        params: runParams,
        querystring: z.object({ diff: z.string().optional() }),
        response: { 200: z.union([buildRunAnswerSchema, buildDiffSchema]) },
      },
    },
    async (request) => {
      const name = decoded(request.params.name);
      const number = decoded(request.params.number);
      await requireOnBuild(request, 'read', name);
      const content = repoContent(request);
      const doc = await buildDocument(db, content, await buildRun(db, name, number));
      const { diff } = request.query;
      if (diff !== undefined) return diffBuilds(doc, await buildDocument(db, content, await buildRun(db, name, diff)));
      return {
        buildInfo: doc,
        uri: `${baseUrlOf(request)}${base}/${encodeURIComponent(name)}/${encodeURIComponent(number)}`,
      };
    },
  );

  app.post(
    `${base}/promote/:name/:number`,
    {
      config: { access: 'user' },
      schema: {
        summary: 'Promote a run: record a status, copy or move its files to a target, set properties on them',
        params: runParams,
        body: buildPromotionSchema,
        response: { 200: buildPromotionAnswerSchema },
      },
    },
    async (request) => {
      const name = decoded(request.params.name);
      const number = decoded(request.params.number);
      const { body } = request;
      await requireOnBuild(request, 'annotate', name);
      const run = await buildRun(db, name, number);
      const content = repoContent(request);
      const target = body.targetRepo ? await content.repository(body.targetRepo) : undefined;
      if (target && target.rclass !== 'local')
        throw badRequest(`Target repository '${body.targetRepo}' is no local repository.`);
      // recording a status on a target is a change there: it needs deploy, as copying to it does
      if (target && !body.dryRun) await content.authorize('deploy', target.key, '');
      const sha1s = promotedChecksums(await buildDocument(db, content, run), body);
      // only files the caller may read are considered: no answer names another
      const found: Awaited<ReturnType<typeof content.locate>> = [];
      for (const item of await content.locate(sha1s, {
        ...(body.sourceRepo ? { repoKey: body.sourceRepo } : {}),
        except: BUILD_INFO_REPO,
      })) {
        if (await isAllowed(db, request.principal, 'read', item.repo_key, item.path)) found.push(item);
      }
      const mode = body.copy ? 'copy' : 'move';
      const properties = body.properties && Object.keys(body.properties).length ? body.properties : undefined;
      const messages: { level: 'INFO' | 'WARNING' | 'ERROR'; message: string }[] = [];
      for (const sha1 of sha1s.filter((s) => !found.some((f) => f.sha1 === s)))
        messages.push({ level: 'WARNING', message: `No stored file has the checksum ${sha1}.` });
      const fail = (message: string) => {
        messages.push({ level: 'ERROR', message });
        if (body.failFast !== false) throw new HttpError(409, message);
      };
      // each file once (the first repository that holds it), to the same path in the target
      const seen = new Set<string>();
      for (const item of found) {
        if (seen.has(item.sha1)) continue;
        seen.add(item.sha1);
        let at = { repoKey: item.repo_key, path: item.path };
        if (target && item.repo_key !== target.key) {
          const to = { repoKey: target.key, path: item.path };
          if (body.dryRun) {
            messages.push({
              level: 'INFO',
              message: `Would ${mode} ${item.repo_key}/${item.path} to ${target.key}/${item.path}`,
            });
          } else {
            try {
              await content.copyOrMove(mode, at, to);
            } catch (error) {
              fail(`${item.repo_key}/${item.path}: ${(error as Error).message}`);
              continue;
            }
            messages.push({
              level: 'INFO',
              message: `${mode === 'copy' ? 'Copied' : 'Moved'} ${item.repo_key}/${item.path} to ${target.key}/${item.path}`,
            });
          }
          at = to;
        }
        if (!properties) continue;
        if (body.dryRun) {
          messages.push({ level: 'INFO', message: `Would set properties on ${at.repoKey}/${at.path}` });
          continue;
        }
        try {
          await content.changeProperties({ ...at, recursive: false }, { set: properties });
          messages.push({ level: 'INFO', message: `Set properties on ${at.repoKey}/${at.path}` });
        } catch (error) {
          fail(`${at.repoKey}/${at.path}: ${(error as Error).message}`);
        }
      }
      if (!body.dryRun) {
        const status = body.status ?? 'promoted';
        await db.transaction().execute(async (trx) => {
          await insertPromotion(trx, {
            // time-ordered: promotions of one millisecond list in the order they were made
            id: uuidv7(),
            build_id: run.id,
            status,
            comment: body.comment ?? '',
            repository: target?.key ?? '',
            ci_user: body.ciUser ?? '',
            user: actorName(request.principal),
            timestamp: body.timestamp ?? new Date().toISOString(),
            created_at: Date.now(),
          });
          await recordChange(trx, actorName(request.principal), {
            event: {
              type: 'build.promoted',
              payload: {
                name,
                number,
                started: run.started,
                status,
                ...(target ? { targetRepo: target.key } : {}),
                copy: body.copy === true,
              },
            },
          });
        });
      }
      return { messages };
    },
  );

  app.delete(
    `${base}/:name`,
    {
      config: { access: 'user' },
      schema: {
        summary: 'Delete runs (`buildNumbers` or `deleteAll=1`), with their artifacts when `artifacts=1`; answers text',
        params: z.object({ name: z.string().min(1) }),
        querystring: z.object({
          buildNumbers: z.string().optional(),
          artifacts: z.enum(['0', '1']).optional(),
          deleteAll: z.enum(['0', '1']).optional(),
        }),
      },
    },
    async (request, reply) => {
      const name = decoded(request.params.name);
      const { query } = request;
      await requireOnBuild(request, 'delete', name);
      const numbers = (query.buildNumbers ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      if (!numbers.length && query.deleteAll !== '1') throw badRequest('buildNumbers or deleteAll=1 is required.');
      const runs = (await buildRuns(db, name)).filter((r) => query.deleteAll === '1' || numbers.includes(r.number));
      if (!runs.length) throw notFound(`No build was found for build name: ${name}`);
      const content = repoContent(request);
      for (const run of runs) {
        if (query.artifacts === '1') {
          for (const item of await content.locate(await artifactSha1s(db, run.id), { except: BUILD_INFO_REPO }))
            await content.remove(item.repo_key, item.path).catch(() => undefined);
        }
        await content.remove(BUILD_INFO_REPO, run.path);
        await db.transaction().execute(async (trx) => {
          await deleteRun(trx, run.id);
          await recordChange(trx, actorName(request.principal), {
            event: {
              type: 'build.deleted',
              payload: { name, number: run.number, started: run.started },
            },
          });
        });
      }
      return reply.type('text/plain').send(`Builds of '${name}' have been deleted successfully.`);
    },
  );

  app.post(
    `${base}/rename/:name`,
    {
      config: { access: 'user' },
      schema: {
        summary: 'Rename a build (every run); answers text',
        params: z.object({ name: z.string().min(1) }),
        querystring: z.object({ to: z.string().min(1) }),
      },
    },
    async (request, reply) => {
      const name = decoded(request.params.name);
      const to = request.query.to.trim();
      await requireOnBuild(request, 'manage', name);
      if (!(await mayOnBuild(request, 'manage', to))) throw forbidden(NO_RIGHT);
      const runs = await buildRuns(db, name);
      if (!runs.length) throw notFound(`No build was found for build name: ${name}`);
      if ((await buildRuns(db, to)).length) throw badRequest(`A build named '${to}' exists already.`);
      const content = repoContent(request);
      for (const run of runs) {
        // the document as published, renamed; promotions stay with the run
        const original = await storedDocument(content, run);
        const path = await storeBuildDocument(content, { ...original, name: to }, Number(run.started_at));
        await content.remove(BUILD_INFO_REPO, run.path);
        await renameRun(db, run.id, to, path);
      }
      return reply.type('text/plain').send(`Build renamed from '${name}' to '${to}'.`);
    },
  );
};
