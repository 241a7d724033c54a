import type { FastifyRequest } from 'fastify';
import picomatch from 'picomatch';
import { badRequest, notFound } from '../../core/errors.js';
import type { LayoutFile } from '../../formats/format.js';
import { parseAql } from './aql.parser.js';
import { runQuery } from './aql.service.js';
import { baseUrlOf } from '../../core/base-url.js';

type Query = Record<string, string | undefined>;

/** Most files read by one layout or pattern search. */
const MAX_FILES = 10_000;

async function files(request: FastifyRequest, criteria: Record<string, unknown>, repos: string[]) {
  const find = repos.length ? { $and: [criteria, { $or: repos.map((repo) => ({ repo })) }] } : criteria;
  const answer = await runQuery(
    request.server.db,
    request.principal,
    parseAql(`items.find(${JSON.stringify(find)}).include("repo","path","name","created").limit(${MAX_FILES})`),
    { trash: false },
  );
  return answer.results.map((r) => ({
    repo: String(r.repo),
    path: r.path === '.' ? String(r.name) : `${String(r.path)}/${String(r.name)}`,
    created: Date.parse(String(r.created)),
  }));
}

const repoList = (query: Query) =>
  (query.repos ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);

/**
 * The versions of a Maven artifact (`g`, `a`, optionally `v` with wildcards) found in the layout
 * of the readable repositories, newest first; `integration` marks snapshots.
 */
/** Maven's repository layout, which the layout searches read (the maven format's). */
function mavenLayout(request: FastifyRequest) {
  const layout = request.server.formatRegistry.for('maven')?.layout;
  if (!layout) throw notFound('Unable to find artifact versions');
  return layout;
}

async function mavenVersions(request: FastifyRequest, query: Query) {
  if (!query.g || !query.a) throw badRequest('The g and a parameters are required.');
  const layout = mavenLayout(request);
  const folder = `${query.g.replaceAll('.', '/')}/${query.a}`;
  const found = await files(
    request,
    { path: { $match: `${folder}/*` }, name: { $match: `${query.a}-*` } },
    repoList(query),
  );
  const versions = new Map<string, { integration: boolean; newest: number; fileVersions: Map<string, number> }>();
  for (const file of found) {
    const maven: LayoutFile | undefined = layout.parse(file.path);
    if (!maven || maven.module !== query.a || !file.path.startsWith(`${folder}/`)) continue;
    if (query.v && !picomatch.isMatch(maven.version, query.v)) continue;
    const entry = versions.get(maven.version) ?? {
      integration: layout.isIntegration(maven.version),
      newest: 0,
      fileVersions: new Map<string, number>(),
    };
    entry.newest = Math.max(entry.newest, file.created);
    entry.fileVersions.set(maven.fileVersion, Math.max(entry.fileVersions.get(maven.fileVersion) ?? 0, file.created));
    versions.set(maven.version, entry);
  }
  return [...versions].sort(([a], [b]) => layout.compareVersions(b, a));
}

/** `GET /api/search/versions`: `{results: [{version, integration}]}`, newest first. */
export async function versionsSearch(request: FastifyRequest, query: Query) {
  const versions = await mavenVersions(request, query);
  if (!versions.length) throw notFound('Unable to find artifact versions');
  return { results: versions.map(([version, { integration }]) => ({ version, integration })) };
}

/**
 * `GET /api/search/latestVersion`: the newest version as text; for a snapshot version (`v=1.0-SNAPSHOT`)
 * the newest unique snapshot's file version (`1.0-20261123.101500-3`) when builds are timestamped.
 */
export async function latestVersionSearch(request: FastifyRequest, query: Query) {
  const versions = await mavenVersions(request, query);
  if (!versions.length) throw notFound('Unable to find artifact versions');
  const [version, { integration, fileVersions }] = versions[0]!;
  if (!integration) return version;
  const unique = [...fileVersions.keys()].filter((v) => v !== version);
  return unique.sort((a, b) => mavenLayout(request).compareVersions(b, a))[0] ?? version;
}

/**
 * `GET /api/search/pattern?pattern=repo-key:path/with/**\/and/*.wildcards`: the readable files of one
 * repository whose path matches (`**` any folders, `*` and `?` within one name).
 */
export async function patternSearch(request: FastifyRequest, query: Query) {
  const pattern = query.pattern ?? '';
  const colon = pattern.indexOf(':');
  if (colon <= 0 || colon === pattern.length - 1)
    throw badRequest('The pattern parameter is repo-key:path-pattern, e.g. libs-release-local:org/**/*.jar.');
  const repo = pattern.slice(0, colon);
  const pathPattern = pattern.slice(colon + 1).replace(/^\/+/, '');
  const isMatch = picomatch(pathPattern, { dot: true });
  // the folders before the first wildcard narrow what is read
  const literal = pathPattern.split(/[*?[{]/)[0]!;
  const folder = literal.includes('/') ? literal.slice(0, literal.lastIndexOf('/')) : '';
  const found = await files(request, folder ? { repo, path: { $match: `${folder}*` } } : { repo }, []);
  return {
    repoUri: `${baseUrlOf(request)}/artifactory/${repo}`,
    sourcePattern: pattern,
    files: found.map((f) => f.path).filter((p) => isMatch(p)),
  };
}

/**
 * `GET /api/search/badChecksum?type=md5|sha1`: files whose client checksum differs from the server's.
 * Arca refuses a deploy (and a remote file) whose sent checksum does not match its content, so
 * none is ever stored and the answer lists none; the call is there for the scripts that ask.
 */
export async function badChecksumSearch(request: FastifyRequest, query: Query) {
  const type = query.type;
  if (type !== 'md5' && type !== 'sha1') throw badRequest('The type parameter is md5 or sha1.');
  return { results: [] as { uri: string; serverMd5?: string; clientMd5?: string }[] };
}
