import type { AdmittedFile } from '../format.js';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { HELM_MAX_CHART_BYTES, HELM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest, conflict } from '../../core/errors.js';
import {
  changeMetadataFile,
  readLimited,
  systemContent,
  withBody,
  type DerivedFile,
  type PlainPaths,
  type RepoContent,
  type Resolved,
} from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';
import {
  emptyIndex,
  inspectChart,
  mapUrls,
  mergeIndexes,
  parseIndex,
  remoteChartPath,
  renderIndex,
  type ChartIndex,
  type ChartVersion,
} from './helm.chart.js';

export const INDEX_FILE = 'index.yaml';
const YAML_TYPE = 'application/x-yaml';

const isChart = (path: string) => path.endsWith('.tgz');

/**
 * Charts in repositories, through the door: the index a repository answers (a local one's kept
 * by the server, a remote one's upstream index with its links rewritten to the repository, a
 * virtual one's merged), and the checks a deployed chart passes.
 */
export class HelmCharts {
  constructor(private readonly content: RepoContent) {}

  private async parsed(found: Resolved): Promise<ChartIndex | undefined> {
    const index = parseIndex((await this.content.read(found.item)).toString('utf8'));
    if (!index || found.repo.rclass !== 'remote') return index;
    return mapUrls(index, (url) => remoteChartPath(url, found.repo.url));
  }

  /** The index a repository answers; undefined when it has none (an empty local repository answers an empty one). */
  async index(repo: RepositoryRow): Promise<ChartIndex | undefined> {
    const sources =
      repo.rclass === 'virtual'
        ? await this.content.resolveEach(repo.key, INDEX_FILE)
        : [await this.content.resolve(repo, INDEX_FILE)].filter((f): f is Resolved => !!f);
    const indexes: ChartIndex[] = [];
    for (const found of sources) {
      const index = await this.parsed(found);
      if (index) indexes.push(index);
    }
    if (!indexes.length) return repo.rclass === 'remote' ? undefined : emptyIndex();
    return indexes.length === 1 ? indexes[0] : mergeIndexes(indexes);
  }

  async indexFile(repo: RepositoryRow): Promise<DerivedFile | undefined> {
    const index = await this.index(repo);
    return index && { body: Buffer.from(renderIndex(index)), contentType: YAML_TYPE };
  }

  /** A local repository's index after a change under `path`: the chart there (re)listed, or what was under it gone. */
  async reindex(repo: RepositoryRow, path: string): Promise<void> {
    const stored = await this.content.stored(repo.key, path);
    let entry: ChartVersion | undefined;
    if (stored && stored.folder !== 1 && isChart(path)) {
      const body = await this.content.read(stored);
      const facts = await inspectChart(body, path).catch(() => undefined);
      if (facts)
        entry = {
          ...facts.metadata,
          urls: [path],
          created: new Date(stored.created_at).toISOString(),
          digest: createHash('sha256').update(body).digest('hex'),
        };
    }
    const under = (url: string) => url === path || url.startsWith(`${path}/`);
    await changeMetadataFile(
      this.content,
      repo,
      INDEX_FILE,
      async (found) => parseIndex((await this.content.read(found.item)).toString('utf8')),
      (current) => {
        const next = current ?? emptyIndex();
        const entries: Record<string, ChartVersion[]> = {};
        for (const [name, versions] of Object.entries(next.entries)) {
          const kept = versions.filter((v) => !v.urls.some(under));
          if (kept.length) entries[name] = kept;
        }
        // a released chart version is never listed twice: the one listed first stays
        if (entry && !entries[entry.name]?.some((v) => v.version === entry.version))
          (entries[entry.name] ??= []).push(entry);
        return { apiVersion: 'v1', entries, generated: new Date().toISOString() };
      },
      {
        serialize: renderIndex,
        same: (a, b) => renderIndex({ ...a, generated: '' }) === renderIndex({ ...b, generated: '' }),
      },
    );
  }
}

/** Refuses a chart whose name and version the repository's index lists already with other bytes. */
async function refuseRepublish(
  content: RepoContent,
  target: RepositoryRow,
  name: string,
  version: string,
  digest: string,
) {
  const listed = (await new HelmCharts(content).index(target))?.entries[name]?.find((v) => v.version === version);
  if (listed && listed.digest !== digest) throw conflict(fill(HELM_MESSAGES.republish, { name, version }));
  return listed;
}

/** A chart copied or moved here: the rules of a deploy. */
export async function admitHelmChart(content: RepoContent, target: RepositoryRow, file: AdmittedFile): Promise<void> {
  if (!isChart(file.path)) return;
  const body = await file.read();
  const facts = await inspectChart(body, file.path).catch(() => undefined);
  if (!facts) return;
  const digest = createHash('sha256').update(body).digest('hex');
  await refuseRepublish(content, target, facts.metadata.name, facts.metadata.version, digest);
}

/**
 * Helm repositories at their own addresses and at `/artifactory/api/helm/{repo}`: a chart is
 * checked before it is stored (a chart archive named `{name}-{version}.tgz` after its Chart.yaml,
 * a version never replaced by other content), `index.yaml` is the server's own, recalculated on
 * every deploy and delete, and a virtual or remote repository's is answered merged or rewritten.
 */
export function helmPlainPaths(app: FastifyInstance): PlainPaths {
  return {
    async deploy(content, target, request) {
      const { path } = request;
      if (path === INDEX_FILE) {
        await readLimited(request.body, HELM_MAX_CHART_BYTES);
        return { taken: await content.stored(target.key, path) };
      }
      if (path.endsWith('.prov')) return request;
      if (!isChart(path)) throw badRequest(fill(HELM_MESSAGES.badPath, { path }));
      const body = await readLimited(request.body, HELM_MAX_CHART_BYTES);
      if (!body) throw badRequest(fill(HELM_MESSAGES.badChart, { path, reason: 'it is larger than 64 MiB' }));
      const { metadata } = await inspectChart(body, path);
      const { name, version } = metadata;
      if (path.split('/').at(-1) !== `${name}-${version}.tgz`)
        throw badRequest(fill(HELM_MESSAGES.nameMismatch, { path, name, version }));
      const digest = createHash('sha256').update(body).digest('hex');
      const listed = await refuseRepublish(content, target, name, version, digest);
      if (listed) {
        const same = await content.stored(target.key, listed.urls[0] ?? path);
        if (same && same.folder !== 1) return { taken: same };
      }
      return {
        ...withBody(request, body),
        properties: { ...request.properties, 'chart.name': [name], 'chart.version': [version] },
      };
    },
    async changed(repo, path) {
      if (repo.rclass !== 'local' || path === INDEX_FILE || path.endsWith('.prov')) return;
      await new HelmCharts(systemContent(app)).reindex(repo, path);
    },
    async read(content, repo, path) {
      if (path !== INDEX_FILE || repo.rclass === 'local') return undefined;
      return new HelmCharts(content).indexFile(repo);
    },
  };
}
