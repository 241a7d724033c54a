import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUILD_INFO_REPO,
  artifactBuildsSchema,
  buildDiffSchema,
  buildNameSchema,
  buildRunInfoSchema,
  buildRunSchema,
  projectBuildsSchema,
} from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import { isAllowed, patternsCover } from '../../core/permissions.js';
import { repoContent } from '../artifacts/index.js';
import { buildDocument, buildRun, buildRuns, diffBuilds, mayOnBuild, startedMillis } from './builds.service.js';
import { buildNames, promotionsOf, runOf, runsWithFile } from './builds.store.js';

import { projectOf, projectScope, readableBuilds } from './builds.routes.js';

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
