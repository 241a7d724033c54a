import semver from 'semver';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { HELM_MESSAGES, formatMessage as fill } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { readTar } from '../../features/artifacts/index.js';

/**
 * Helm's chart repository format: a chart archive's Chart.yaml, and `index.yaml` as Helm
 * documents it (`apiVersion: v1`, `entries` by chart name, each version with its Chart.yaml
 * fields, `urls`, `created` and `digest`, newest first).
 */

/** Chart.yaml's fields, as the index carries them. */
export type ChartMetadata = Record<string, unknown> & { name: string; version: string; apiVersion: string };

/** One version of a chart in an index. */
export type ChartVersion = ChartMetadata & { urls: string[]; created: string; digest: string };

export interface ChartIndex {
  apiVersion: string;
  entries: Record<string, ChartVersion[]>;
  generated: string;
}

/** What a chart archive holds for the repository: its Chart.yaml and readme. */
export interface ChartFacts {
  metadata: ChartMetadata;
  readme?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

/**
 * Reads a chart archive through: a gzipped tar of one top folder named as the chart, with a
 * Chart.yaml naming it, a SemVer 2 version and an apiVersion. Throws the client's message otherwise.
 */
export async function inspectChart(archive: Buffer, path: string): Promise<ChartFacts> {
  const fault = (reason: string) => badRequest(fill(HELM_MESSAGES.badChart, { path, reason }));
  let contents;
  try {
    contents = await readTar(archive, (name) => /^[^/]+\/(Chart\.yaml|README\.md)$/i.test(name), {
      maxEntryBytes: 4 * 1024 * 1024,
    });
  } catch (error) {
    throw fault(`not a readable gzipped tar archive (${(error as Error).message})`);
  }
  const tops = new Set(contents.entries.map((e) => e.name.split('/')[0]));
  if (tops.size !== 1) throw fault('a chart archive holds exactly one top folder');
  const top = [...tops][0]!;
  const chartYaml = contents.files.get(`${top}/Chart.yaml`);
  if (!chartYaml) throw fault(`it holds no ${top}/Chart.yaml`);
  let parsed: unknown;
  try {
    parsed = parseYaml(chartYaml.toString('utf8'));
  } catch (error) {
    throw fault(`its Chart.yaml cannot be read (${(error as Error).message.split('\n')[0]})`);
  }
  if (!isObject(parsed)) throw fault('its Chart.yaml is not a mapping');
  const { name, version, apiVersion } = parsed;
  if (typeof name !== 'string' || !name) throw fault('its Chart.yaml names no chart');
  if (typeof version !== 'string' || !semver.valid(version))
    throw fault(`its version '${String(version)}' is not SemVer 2`);
  if (apiVersion !== 'v1' && apiVersion !== 'v2')
    throw fault(`its apiVersion '${String(apiVersion)}' is neither v1 nor v2`);
  if (top !== name) throw fault(`its top folder '${top}' is not named as the chart '${name}'`);
  const readme = [...contents.files.entries()].find(([entry]) => /README\.md$/i.test(entry))?.[1];
  return {
    metadata: { ...parsed, name, version, apiVersion } as ChartMetadata,
    ...(readme ? { readme: readme.toString('utf8') } : {}),
  };
}

/** Versions newest first, as Helm sorts them. */
const newestFirst = (a: ChartVersion, b: ChartVersion) => semver.rcompare(a.version, b.version);

export function emptyIndex(): ChartIndex {
  return { apiVersion: 'v1', entries: {}, generated: new Date().toISOString() };
}

/** An index file as stored or as an upstream answers it; undefined when it is no index. */
export function parseIndex(text: string): ChartIndex | undefined {
  try {
    const parsed: unknown = parseYaml(text);
    if (!isObject(parsed) || !isObject(parsed.entries)) return undefined;
    const entries: Record<string, ChartVersion[]> = {};
    for (const [name, versions] of Object.entries(parsed.entries)) {
      if (!Array.isArray(versions)) continue;
      entries[name] = versions.filter(
        (v): v is ChartVersion => isObject(v) && typeof v.version === 'string' && Array.isArray(v.urls),
      );
    }
    return {
      apiVersion: typeof parsed.apiVersion === 'string' ? parsed.apiVersion : 'v1',
      entries,
      generated: typeof parsed.generated === 'string' ? parsed.generated : new Date().toISOString(),
    };
  } catch {
    return undefined;
  }
}

export function renderIndex(index: ChartIndex): string {
  const entries: Record<string, ChartVersion[]> = {};
  for (const name of Object.keys(index.entries).sort()) {
    const versions = index.entries[name]!;
    if (versions.length) entries[name] = [...versions].sort(newestFirst);
  }
  return stringifyYaml({ apiVersion: 'v1', entries, generated: index.generated }, { lineWidth: 0 });
}

/** The same index, each version's urls passed through `map` (a remote's rewritten to where the repository serves them). */
export function mapUrls(index: ChartIndex, map: (url: string) => string): ChartIndex {
  const entries: Record<string, ChartVersion[]> = {};
  for (const [name, versions] of Object.entries(index.entries)) {
    entries[name] = versions.map((v) => ({ ...v, urls: v.urls.map(map) }));
  }
  return { ...index, entries };
}

/** Indexes merged: a chart version the first has wins. */
export function mergeIndexes(indexes: ChartIndex[]): ChartIndex {
  const merged = emptyIndex();
  for (const index of indexes) {
    for (const [name, versions] of Object.entries(index.entries)) {
      const into = (merged.entries[name] ??= []);
      for (const version of versions) if (!into.some((v) => v.version === version.version)) into.push(version);
    }
  }
  return merged;
}

/**
 * Where a remote repository serves a file its upstream's index links: relative to the
 * repository when it is under the upstream's address, `external/{host}/{path}` when it is elsewhere.
 */
export function remoteChartPath(url: string, repositoryUrl: string): string {
  const base = repositoryUrl.endsWith('/') ? repositoryUrl : `${repositoryUrl}/`;
  const absolute = new URL(url, new URL('index.yaml', base));
  if (absolute.href.startsWith(base)) return decodeURIComponent(absolute.href.slice(base.length).split('?')[0]!);
  return `external/${absolute.host}${decodeURIComponent(absolute.pathname)}`;
}
