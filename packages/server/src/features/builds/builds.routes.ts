import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import {
  ALL_PROJECTS_CONTEXT,
  AUTH_MESSAGES,
  BUILD_INFO_REPO,
  artifactBuildsSchema,
  buildDiffSchema,
  buildInfoSchema,
  buildListAnswerSchema,
  buildNameSchema,
  buildPromotionAnswerSchema,
  buildPromotionSchema,
  buildRunAnswerSchema,
  buildRunInfoSchema,
  buildRunSchema,
  buildRunsAnswerSchema,
  projectBuildsSchema,
  projectScopeSchema,
  type PublishedBuildInfo,
} from '@arca/contracts';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, forbidden, notFound, unauthorized } from '../../core/errors.js';
import { actorName } from '../../core/principals.js';
import { isAllowed, patternsCover } from '../../core/permissions.js';
import { repoContent } from '../artifacts/index.js';
import {
  buildDocument,
  buildRun,
  buildRuns,
  diffBuilds,
  mayOnBuild,
  publishBuild,
  startedMillis,
  storeBuildDocument,
  storedDocument,
  type BuildInfo,
} from './builds.service.js';
import { baseUrlOf } from '../../core/base-url.js';
import {
  artifactSha1s,
  buildNames,
  deleteRun,
  insertPromotion,
  promotionsOf,
  renameRun,
  runOf,
  runsWithFile,
} from './builds.store.js';

const base = '/artifactory/api/build';

/** The project a listing is narrowed to; none for all projects. */
const projectOf = (query: { projectKey?: string | undefined; project?: string | undefined }) => {
  const key = query.projectKey ?? query.project;
  return key && key !== ALL_PROJECTS_CONTEXT.key ? key : undefined;
};

/** `?project=` (Artifactory's REST) or `?projectKey=` (the console's project scope). */
const projectScope = projectScopeSchema.extend({ project: z.string().max(128).optional() });

/**
 * The build names the caller may read (of one project, when given), each with its newest run and
 * how many runs it has — newest run's project being the build's.
 */
async function readableBuilds(request: FastifyRequest, project?: string) {
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
      await publishBuild(request, request.body as PublishedBuildInfo, request.query.project);
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

/**
 * The console's build calls: `GET /ui/artifactbuilds?repoKey&path` — the builds that produced a
 * file (its checksum among their artifacts, or its `build.name`/`build.number` properties) and
 * those that used it (among their dependencies), each only if the caller may read the build.
 */
export const buildsConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  app.get(
    '/ui/artifactbuilds',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ repoKey: z.string(), path: z.string() }),
        response: { 200: artifactBuildsSchema },
      },
    },
    async (request) => {
      const { repoKey, path } = request.query;
      const content = repoContent(request);
      const found = await content.resolve(repoKey, path.replace(/^\/+/, ''));
      if (!found || found.item.folder === 1) throw notFound();
      const { sha1 } = await content.checksums(found.item);
      const properties = await content.properties(found.item);
      const rows = await runsWithFile(db, sha1);
      const named = properties['build.name']?.[0];
      const numbered = properties['build.number']?.[0];
      if (named && numbered) {
        const run = await runOf(db, named, numbered);
        if (run && !rows.some((r) => r.kind === 'artifact' && r.name === run.name && r.number === run.number))
          rows.push({
            name: run.name,
            number: run.number,
            started: run.started,
            started_at: run.started_at,
            kind: 'artifact',
            module: '',
          });
      }
      const visible: typeof rows = [];
      for (const row of rows) if (await mayOnBuild(request, 'read', row.name)) visible.push(row);
      const shape = (kind: 'artifact' | 'dependency') =>
        visible
          .filter((r) => r.kind === kind)
          .sort((a, b) => Number(b.started_at) - Number(a.started_at))
          .map((r) => ({ name: r.name, number: r.number, started: r.started, moduleID: r.module }));
      return { producedBy: shape('artifact'), usedBy: shape('dependency') };
    },
  );
};

/** The console's build pages: names with their last run, a build's runs, one run with its files located, a diff. */
export const buildsPagesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const readable = async (request: FastifyRequest, name: string) => {
    if (!(await mayOnBuild(request, 'read', name))) throw notFound(`No build was found for build name: ${name}`);
  };

  app.get(
    '/ui/builds/names',
    {
      config: { access: 'public' },
      schema: { querystring: projectScope, response: { 200: z.array(buildNameSchema) } },
    },
    async (request) => readableBuilds(request, projectOf(request.query)),
  );

  /** The published build names that build patterns of a permission target cover (its form's preview). */
  app.post(
    '/ui/permissiontargets/buildPatterns',
    {
      config: { access: 'admin' },
      schema: {
        body: z.object({
          includePatterns: z.array(z.string()).default([]),
          excludePatterns: z.array(z.string()).default([]),
        }),
        response: { 200: z.array(z.string()) },
      },
    },
    async (request) => {
      const { includePatterns, excludePatterns } = request.body;
      const names = (await buildNames(db)).map((name) => ({ name }));
      return names
        .map((row) => row.name)
        .filter((name) => patternsCover(includePatterns, excludePatterns, `${encodeURIComponent(name)}/x`));
    },
  );

  /** Per project, the builds the caller may read in it: names, runs and the newest start. */
  app.get(
    '/ui/builds/projectInfo',
    { config: { access: 'public' }, schema: { response: { 200: z.array(projectBuildsSchema) } } },
    async (request) => {
      const perProject = new Map<string, { projectKey: string; builds: number; runs: number; lastStarted: string }>();
      for (const build of await readableBuilds(request)) {
        if (!build.project) continue;
        const entry = perProject.get(build.project);
        if (!entry) {
          perProject.set(build.project, {
            projectKey: build.project,
            builds: 1,
            runs: build.runs,
            lastStarted: build.lastStarted,
          });
          continue;
        }
        entry.builds += 1;
        entry.runs += build.runs;
        if (startedMillis(build.lastStarted) > startedMillis(entry.lastStarted)) entry.lastStarted = build.lastStarted;
      }
      return [...perProject.values()].sort((a, b) => a.projectKey.localeCompare(b.projectKey));
    },
  );

  app.get(
    '/ui/builds/history/:name',
    {
      config: { access: 'public' },
      schema: { params: z.object({ name: z.string() }), response: { 200: z.array(buildRunSchema) } },
    },
    async (request) => {
      const { name } = request.params;
      await readable(request, name);
      const runs = await buildRuns(db, name);
      const promotions = await promotionsOf(
        db,
        runs.map((r) => r.id),
      );
      return runs.map((run) => ({
        number: run.number,
        started: run.started,
        createdBy: run.created_by,
        statuses: promotions
          .filter((p) => p.build_id === run.id)
          .map((p) => ({
            status: p.status,
            comment: p.comment,
            ...(p.repository ? { repository: p.repository } : {}),
            user: p.user,
            ciUser: p.ci_user,
            timestamp: p.timestamp,
          })),
      }));
    },
  );

  app.get(
    '/ui/builds/info',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ name: z.string(), number: z.string() }),
        response: { 200: buildRunInfoSchema },
      },
    },
    async (request) => {
      const { name, number } = request.query;
      await readable(request, name);
      const content = repoContent(request);
      const run = await buildRun(db, name, number);
      const doc = await buildDocument(db, content, run);
      const sha1s = (doc.modules ?? [])
        .flatMap((m) => [...(m.artifacts ?? []), ...(m.dependencies ?? [])])
        .map((f) => f.sha1?.toLowerCase() ?? '');
      const places = new Map<string, { repoKey: string; path: string }>();
      for (const item of await repoContent(request).locate([...new Set(sha1s.filter(Boolean))], {
        except: BUILD_INFO_REPO,
      })) {
        if (places.has(item.sha1)) continue;
        if (await isAllowed(db, request.principal, 'read', item.repo_key, item.path))
          places.set(item.sha1, { repoKey: item.repo_key, path: item.path });
      }
      const locate = (f: { sha1?: string }) => (f.sha1 ? places.get(f.sha1.toLowerCase()) : undefined) ?? null;
      return {
        buildInfo: doc,
        modules: (doc.modules ?? []).map((m) => ({
          id: m.id ?? '',
          artifacts: (m.artifacts ?? []).map((f) => ({
            name: f.name ?? f.id ?? '',
            type: f.type ?? '',
            sha1: f.sha1 ?? '',
            location: locate(f),
          })),
          dependencies: (m.dependencies ?? []).map((f) => ({
            name: f.id ?? f.name ?? '',
            type: f.type ?? '',
            sha1: f.sha1 ?? '',
            scopes: f.scopes ?? [],
            location: locate(f),
          })),
        })),
      };
    },
  );

  app.get(
    '/ui/builds/diff',
    {
      config: { access: 'public' },
      schema: {
        querystring: z.object({ name: z.string(), number: z.string(), other: z.string() }),
        response: { 200: buildDiffSchema },
      },
    },
    async (request) => {
      const { name, number, other } = request.query;
      await readable(request, name);
      const content = repoContent(request);
      return diffBuilds(
        await buildDocument(db, content, await buildRun(db, name, number)),
        await buildDocument(db, content, await buildRun(db, name, other)),
      );
    },
  );
};
