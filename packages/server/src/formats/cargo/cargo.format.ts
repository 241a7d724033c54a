import semver from 'semver';
import type { Format } from '../format.js';
import { indexFilePath, inspectCrate, parseCratePath, parseIndexFile } from './cargo.crate.js';
import { cargoRoutes } from './cargo.routes.js';
import { cargoPlainPaths } from './cargo.service.js';

/** Crates larger than this are listed in the catalogue without their readme and dependencies. */
const INDEX_MAX_CRATE_BYTES = 64 * 1024 * 1024;

/**
 * Where a remote repository's upstream serves a crate: at its index's `config.json` `dl`, with
 * the markers Cargo defines filled in (`{crate}`, `{version}`, `{prefix}`, `{lowerprefix}`,
 * `{sha256-checksum}`), or `{dl}/{crate}/{version}/download` when it has none.
 */
async function upstreamAddress(
  path: string,
  metadata: (path: string) => Promise<Buffer | undefined>,
): Promise<string | undefined> {
  const crate = parseCratePath(path);
  if (!crate) return undefined;
  let dl: string | undefined;
  try {
    dl = (JSON.parse((await metadata('index/config.json'))?.toString('utf8') ?? '{}') as { dl?: string }).dl;
  } catch {
    dl = undefined;
  }
  if (!dl) return undefined;
  if (!/\{(crate|version|prefix|lowerprefix|sha256-checksum)\}/.test(dl)) {
    return `${dl.replace(/\/+$/, '')}/${encodeURIComponent(crate.name)}/${encodeURIComponent(crate.version)}/download`;
  }
  const prefix = indexFilePath(crate.name).split('/').slice(0, -1).join('/');
  let checksum = '';
  if (dl.includes('{sha256-checksum}')) {
    const index = await metadata(`index/${indexFilePath(crate.name)}`);
    checksum = parseIndexFile(index?.toString('utf8') ?? '').find((e) => e.vers === crate.version)?.cksum ?? '';
  }
  return dl
    .replaceAll('{crate}', crate.name)
    .replaceAll('{version}', crate.version)
    .replaceAll('{prefix}', prefix)
    .replaceAll('{lowerprefix}', prefix.toLowerCase())
    .replaceAll('{sha256-checksum}', checksum);
}

/**
 * Cargo registries (sparse index): `/artifactory/api/cargo/{repoKey}/`; crates stored at
 * `crates/{name}/{name}-{version}.crate`, index files at `index/{prefix}/{name}`. A remote
 * repository proxies another sparse index (`https://index.crates.io/`, its crates fetched where
 * its `config.json` says); its index files and `config.json` expire as metadata.
 */
export const cargoFormat: Format = {
  types: ['cargo'],
  defaultUpstream: 'https://index.crates.io/',
  routes: cargoRoutes,
  plainPaths: cargoPlainPaths,
  remoteMetadata: {
    isMetadata: (path) => path.startsWith('index/'),
    upstreamPath: (path) =>
      (path.startsWith('index/') ? path.slice('index/'.length) : path).split('/').map(encodeURIComponent).join('/'),
    upstreamAddress,
  },
  /** A `.crate`: its Cargo.toml's description, licence, keywords and dependencies, and its readme. */
  async index(file, content) {
    const crate = parseCratePath(file.path);
    if (!crate) return undefined;
    const facts =
      Number(file.size) <= INDEX_MAX_CRATE_BYTES
        ? await inspectCrate(await content.read(file), crate.name, crate.version).catch(() => undefined)
        : undefined;
    const dependencies: Record<string, string> = {};
    for (const dep of facts?.entry.deps ?? [])
      if (dep.kind === 'normal') dependencies[dep.package ?? dep.name] = dep.req;
    return {
      name: crate.name,
      version: crate.version,
      ...(facts?.description ? { description: facts.description } : {}),
      licenses: facts?.license ? [facts.license] : [],
      tags: facts?.keywords ?? [],
      dependencies,
      ...(facts?.readme ? { readme: facts.readme } : {}),
      fields: {},
    };
  },
  versions: {
    ecosystems: ['crates.io'],
    compare: (a, b) => semver.compare(a, b),
    valid: (version) => semver.valid(version) !== null,
  },
  layout: {
    parse(path) {
      const crate = parseCratePath(path);
      return crate && { module: crate.name, version: crate.version, fileVersion: crate.version };
    },
    compareVersions: (a, b) => semver.compare(a, b),
    isIntegration: (version) => semver.prerelease(version) !== null,
  },
};
