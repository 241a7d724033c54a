import type { FastifyInstance } from 'fastify';
import type { FormatFacts } from '../core/context.plugin.js';
import type { Format, PlainPaths } from './format.js';
import { genericFormat } from './generic/generic.format.js';
import { mavenFormat } from './maven/maven.format.js';
import { npmFormat } from './npm/npm.format.js';
import { pypiFormat } from './pypi/pypi.format.js';

/** Every package format the server speaks, in one list. */
export const FORMATS: readonly Format[] = [genericFormat, mavenFormat, npmFormat, pypiFormat];

/**
 * Public upstreams offered when quick-creating a remote repository of a type no format serves
 * yet (its files are then proxied and cached as generic files); a format's own `defaultUpstream`
 * takes precedence.
 */
const KNOWN_UPSTREAMS: Record<string, string> = {
  docker: 'https://registry-1.docker.io/',
  helm: 'https://charts.helm.sh/stable/',
  go: 'https://proxy.golang.org/',
  nuget: 'https://www.nuget.org/',
  gems: 'https://rubygems.org/',
  cargo: 'https://index.crates.io/',
};

/** The format serving a package type; undefined when none does (the repository then holds generic files). */
export function formatFor(packageType: string): Format | undefined {
  return FORMATS.find((f) => f.types.includes(packageType));
}

export function defaultUpstream(packageType: string): string | undefined {
  return formatFor(packageType)?.defaultUpstream ?? KNOWN_UPSTREAMS[packageType];
}

/** The formats' facts for the rest of the server, without it importing the formats. */
export const FORMAT_FACTS: FormatFacts = {
  defaultUpstream,
  metadataMaxAgeMs(repo, path) {
    const metadata = formatFor(repo.package_type)?.remoteMetadata;
    return metadata?.isMetadata(path) ? Number(repo.metadata_max_age_secs) * 1000 : undefined;
  },
  upstreamPath(repo, path) {
    return (
      formatFor(repo.package_type)?.remoteMetadata?.upstreamPath?.(path, repo.url) ??
      path.split('/').map(encodeURIComponent).join('/')
    );
  },
};

/**
 * Registers every format's client-facing routes, each in its own encapsulated context, after the
 * hooks of the formats served at the repositories' own addresses (`app.plainPaths`).
 */
export async function registerFormats(app: FastifyInstance): Promise<void> {
  const plain = new Map<string, PlainPaths>();
  for (const format of FORMATS) {
    const hooks = format.plainPaths?.(app);
    if (hooks) for (const type of format.types) plain.set(type, hooks);
  }
  app.decorate('plainPaths', plain);
  for (const format of FORMATS) if (format.routes) await app.register(format.routes);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The plain-path hooks by package type (Maven, Gradle); generic repositories have none. */
    plainPaths: ReadonlyMap<string, PlainPaths>;
  }
}
