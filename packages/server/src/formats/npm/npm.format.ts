import type { Format, PackageVersionRecord, UpstreamFetch, UpstreamHit } from '../format.js';
import { inspectTarball } from './npm.tarball.js';

const strings = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((v): v is string => typeof v === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

/** A package version from a tarball's package.json and README (`{name}/-/{file}.tgz`). */
export function npmRecord(packageJson: Record<string, unknown>, readme?: string): PackageVersionRecord | undefined {
  const { name, version } = packageJson;
  if (typeof name !== 'string' || typeof version !== 'string') return undefined;
  const license = packageJson.license as unknown;
  const licenses =
    typeof license === 'string'
      ? [license]
      : license && typeof license === 'object' && typeof (license as { type?: unknown }).type === 'string'
        ? [(license as { type: string }).type]
        : strings((packageJson.licenses as { type?: string }[] | undefined)?.map((l) => l?.type));
  const dependencies = packageJson.dependencies;
  return {
    name,
    version,
    ...(typeof packageJson.description === 'string' ? { description: packageJson.description } : {}),
    licenses,
    tags: strings(packageJson.keywords),
    dependencies:
      dependencies && typeof dependencies === 'object'
        ? Object.fromEntries(
            Object.entries(dependencies).filter((e): e is [string, string] => typeof e[1] === 'string'),
          )
        : {},
    ...(readme !== undefined
      ? { readme }
      : typeof packageJson.readme === 'string'
        ? { readme: packageJson.readme }
        : {}),
    fields: {},
  };
}
import { npmRoutes } from './npm.routes.js';
import semver from 'semver';

/** `.npm/{name}/package.json` → `{name}` with a scope's slash encoded, as registries serve packuments. */
function upstreamPath(path: string): string {
  const packument = /^\.npm\/(.+)\/package\.json$/.exec(path);
  if (packument) return packument[1]!.split('/').map(encodeURIComponent).join('%2f');
  // tarballs: `{@scope/}{name}/-/{file}` as they are, the scope's '@' kept
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/^%40/, '@'))
    .join('/');
}

/** The registry's own search (`/-/v1/search`), as npm's registry and Arca answer it. */
async function searchUpstream(term: string, fetch: UpstreamFetch): Promise<UpstreamHit[]> {
  const response = await fetch(`-/v1/search?text=${encodeURIComponent(term)}&size=50`, {
    accept: 'application/json',
  });
  if (!response.ok) throw new Error(`The upstream answered ${response.status} to a search.`);
  const body = (await response.json()) as { objects?: { package?: Record<string, unknown> }[] };
  return (body.objects ?? []).flatMap(({ package: pkg }) => {
    if (!pkg || typeof pkg.name !== 'string' || typeof pkg.version !== 'string') return [];
    const base = pkg.name.split('/').pop()!;
    return [
      {
        name: pkg.name,
        version: pkg.version,
        path: `${pkg.name}/-/${base}-${pkg.version}.tgz`,
        ...(typeof pkg.description === 'string' ? { description: pkg.description } : {}),
      },
    ];
  });
}

/** npm, pnpm and yarn at `/artifactory/api/npm/{repoKey}/`. */
export const npmFormat: Format = {
  types: ['npm'],
  searchUpstream,
  defaultUpstream: 'https://registry.npmjs.org/',
  routes: npmRoutes,
  remoteMetadata: { isMetadata: (path) => path.startsWith('.npm/'), upstreamPath },
  versions: {
    ecosystems: ['npm'],
    compare: (a, b) => semver.compare(a, b),
    valid: (version) => semver.valid(version) !== null,
  },
  async index(file, content) {
    if (file.path.startsWith('.npm/') || !/\/-\/[^/]+\.tgz$/.test(file.path)) return undefined;
    const facts = await inspectTarball(content.open(file));
    return facts ? npmRecord(facts.packageJson, facts.readme) : undefined;
  },
};
