import type { FastifyRequest } from 'fastify';
import {
  BUILD_INFO_REPO,
  RELEASE_BUNDLES_REPO,
  RELEASE_BUNDLE_MAX_ARTIFACTS,
  RELEASE_BUNDLE_MESSAGES,
  formatMessage,
  type TypedBundleSource,
} from '@arca/contracts';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { isAllowed } from '../../core/permissions.js';
import { repoContent, type RepoContent } from '../artifacts/index.js';
import { artifactSha1s, mayOnBuild, runOf } from '../builds/index.js';
import { versionLeadPath } from '../packages/index.js';
import { AqlError, parseAql, runAql } from '../search/index.js';
import { artifactsOf, findVersion } from './release-bundles.store.js';

/** One file a bundle version holds, as resolved from its sources. */
export interface ResolvedArtifact {
  repoKey: string;
  path: string;
  sha256: string;
  size: number;
  packageType: string;
  /** Where it came from: 'build app/42', 'bundle web 1.0.0', 'aql', 'artifacts', 'package npm left-pad 1.3.0'. */
  source: string;
}

const fill = formatMessage;

/** Repositories looked up once per resolution. */
function repositories(content: RepoContent) {
  const known = new Map<string, Promise<RepositoryRow | undefined>>();
  return (key: string) => {
    let found = known.get(key);
    if (!found) {
      found = content.repository(key).catch(() => undefined);
      known.set(key, found);
    }
    return found;
  };
}

/**
 * Resolves a bundle's sources to files, once: every path the caller may read, each with the
 * SHA-256 it has now; a path two sources name is taken once (the first source names it). A
 * source that names something absent, or a file with another SHA-256 than given, refuses the
 * whole bundle with a message naming it; nothing is written here.
 */
export async function resolveSources(
  request: FastifyRequest,
  sources: TypedBundleSource[],
): Promise<ResolvedArtifact[]> {
  const { db } = request.server;
  const content = repoContent(request);
  const repositoryOf = repositories(content);
  const found = new Map<string, ResolvedArtifact>();
  const add = async (item: ItemRow, source: string) => {
    const key = `${item.repo_key}/${item.path}`;
    if (found.has(key) || item.folder === 1 || !item.sha256) return;
    if (item.repo_key === RELEASE_BUNDLES_REPO || item.repo_key === BUILD_INFO_REPO) return;
    const repo = await repositoryOf(item.repo_key);
    found.set(key, {
      repoKey: item.repo_key,
      path: item.path,
      sha256: item.sha256,
      size: Number(item.size),
      packageType: repo?.package_type ?? 'generic',
      source,
    });
    if (found.size > RELEASE_BUNDLE_MAX_ARTIFACTS)
      throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.tooMany, { count: String(RELEASE_BUNDLE_MAX_ARTIFACTS) }));
  };
  /** The stored file at a path the caller may read, or the refusal naming it. */
  const readable = async (repoKey: string, path: string): Promise<ItemRow> => {
    const item = (await repositoryOf(repoKey)) ? await content.stored(repoKey, path) : undefined;
    if (!item || !(await content.mayRead(repoKey, path)))
      throw notFound(fill(RELEASE_BUNDLE_MESSAGES.artifactNotFound, { path: `${repoKey}/${path}` }));
    return item;
  };

  for (const source of sources) {
    switch (source.source_type) {
      case 'artifacts':
        for (const wanted of source.artifacts ?? []) {
          const full = wanted.path.replace(/^\/+/, '');
          const slash = full.indexOf('/');
          if (slash <= 0) throw notFound(fill(RELEASE_BUNDLE_MESSAGES.artifactNotFound, { path: full }));
          const item = await readable(full.slice(0, slash), full.slice(slash + 1));
          if (item.folder === 1) throw badRequest(fill(RELEASE_BUNDLE_MESSAGES.artifactIsFolder, { path: full }));
          if (wanted.sha256 && wanted.sha256.toLowerCase() !== item.sha256)
            throw conflict(
              fill(RELEASE_BUNDLE_MESSAGES.checksumMismatch, {
                path: full,
                expected: wanted.sha256.toLowerCase(),
                actual: item.sha256 ?? '',
              }),
            );
          await add(item, 'artifacts');
        }
        break;
      case 'aql': {
        let answer;
        try {
          if (parseAql(source.aql ?? '').domain !== 'items') throw badRequest(RELEASE_BUNDLE_MESSAGES.aqlItemsOnly);
          answer = await runAql(db, request.principal, source.aql ?? '');
        } catch (error) {
          if (error instanceof AqlError) throw badRequest(`Failed to parse query: ${error.message}`);
          throw error;
        }
        for (const row of answer.results) {
          if (row.type === 'folder') continue;
          const folder = String(row.path ?? '.');
          const path = folder === '.' || folder === '' ? String(row.name) : `${folder}/${String(row.name)}`;
          const item = await content.stored(String(row.repo), path);
          if (item) await add(item, 'aql');
        }
        break;
      }
      case 'builds':
        for (const build of source.builds ?? []) {
          const run = await runOf(db, build.build_name, build.build_number);
          if (!run || !(await mayOnBuild(request, 'read', build.build_name)))
            throw notFound(
              fill(RELEASE_BUNDLE_MESSAGES.buildNotFound, { name: build.build_name, number: build.build_number }),
            );
          const sha1s = await artifactSha1s(db, run.id, build.include_dependencies);
          const located = await content.locate(sha1s, { except: BUILD_INFO_REPO });
          const label = `build ${build.build_name}/${build.build_number}`;
          const seen = new Set<string>();
          for (const at of located) {
            if (seen.has(at.sha1)) continue;
            if (!(await isAllowed(db, request.principal, 'read', at.repo_key, at.path))) continue;
            const item = await content.stored(at.repo_key, at.path);
            if (!item) continue;
            seen.add(at.sha1);
            await add(item, label);
          }
          const missing = sha1s.filter((sha1) => !seen.has(sha1));
          if (missing.length)
            throw notFound(
              `${fill(RELEASE_BUNDLE_MESSAGES.buildNotFound, { name: build.build_name, number: build.build_number })} ` +
                `No readable file has the SHA-1 ${missing[0]} it lists.`,
            );
        }
        break;
      case 'release_bundles':
        for (const wanted of source.release_bundles ?? []) {
          const name = wanted.release_bundle_name;
          const version = wanted.release_bundle_version;
          const row = await findVersion(db, name, version);
          if (!row || !(await isAllowed(db, request.principal, 'read', RELEASE_BUNDLES_REPO, `${name}/${version}`)))
            throw notFound(fill(RELEASE_BUNDLE_MESSAGES.notFound, { name, version }));
          for (const artifact of await artifactsOf(db, row.id)) {
            const item = await readable(artifact.repo_key, artifact.path);
            if (item.sha256 !== artifact.sha256)
              throw conflict(
                fill(RELEASE_BUNDLE_MESSAGES.checksumMismatch, {
                  path: `${artifact.repo_key}/${artifact.path}`,
                  expected: artifact.sha256,
                  actual: item.sha256 ?? '',
                }),
              );
            await add(item, `bundle ${name} ${version}`);
          }
        }
        break;
      case 'packages':
        for (const wanted of source.packages ?? []) {
          const key = {
            packageType: wanted.package_type,
            name: wanted.package_name,
            version: wanted.package_version,
            repoKey: wanted.repository_key,
          };
          const lead = (await repositoryOf(key.repoKey)) ? await versionLeadPath(db, key) : undefined;
          const absent = () =>
            notFound(
              fill(RELEASE_BUNDLE_MESSAGES.packageNotFound, {
                type: key.packageType,
                name: key.name,
                version: key.version,
                repo: key.repoKey,
              }),
            );
          if (!lead) throw absent();
          const label = `package ${key.packageType} ${key.name} ${key.version}`;
          const item = await readable(key.repoKey, lead).catch(() => {
            throw absent();
          });
          await add(item, label);
          // a version with a folder of its own (Maven, Go, Cargo layouts) brings its other files too
          const parent = lead.includes('/') ? lead.slice(0, lead.lastIndexOf('/')) : '';
          if (parent && parent.slice(parent.lastIndexOf('/') + 1) === key.version) {
            const repo = (await repositoryOf(key.repoKey))!;
            for (const sibling of await content.children(repo, parent))
              if (sibling.folder === 0 && (await content.mayRead(key.repoKey, sibling.path))) await add(sibling, label);
          }
        }
        break;
    }
  }
  if (found.size === 0) throw new HttpError(400, RELEASE_BUNDLE_MESSAGES.empty);
  return [...found.values()].sort((a, b) =>
    a.repoKey === b.repoKey ? (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) : a.repoKey < b.repoKey ? -1 : 1,
  );
}
