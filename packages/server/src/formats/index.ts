import type { FastifyInstance } from 'fastify';
import type { FormatFacts } from '../core/context.plugin.js';
import { OutboxConsumer } from '../core/outbox.js';
import { systemContent } from '../features/artifacts/index.js';
import type { FormatRegistry, PlainPaths, RepoContent } from '../features/artifacts/index.js';
import type { Format } from './format.js';
import { cargoFormat } from './cargo/cargo.format.js';
import { debianFormat } from './debian/debian.format.js';
import { gemsFormat } from './gems/gems.format.js';
import { genericFormat } from './generic/generic.format.js';
import { goFormat } from './go/go.format.js';
import { helmFormat } from './helm/helm.format.js';
import { mavenFormat } from './maven/maven.format.js';
import { npmFormat } from './npm/npm.format.js';
import { ociFormat } from './oci/oci.format.js';
import { pypiFormat } from './pypi/pypi.format.js';
import { rpmFormat } from './rpm/rpm.format.js';
import { terraformFormat } from './terraform/terraform.format.js';

/** Every package format the server speaks, in one list: the registry (each implements `./format.ts`). */
export const FORMATS: readonly Format[] = [
  cargoFormat,
  debianFormat,
  gemsFormat,
  genericFormat,
  goFormat,
  helmFormat,
  mavenFormat,
  npmFormat,
  ociFormat,
  pypiFormat,
  rpmFormat,
  terraformFormat,
];

/**
 * Public upstreams offered when quick-creating a remote repository of a type no format serves
 * yet (its files are then proxied and cached as generic files); a format's own `defaultUpstream`
 * takes precedence.
 */
const KNOWN_UPSTREAMS: Record<string, string> = {
  nuget: 'https://www.nuget.org/',
};

/** The registry as the composition root hands it to the features (`app.formatRegistry`). */
export function formatRegistry(formats: readonly Format[] = FORMATS): FormatRegistry {
  return { all: formats, for: (packageType) => formats.find((f) => f.types.includes(packageType)) };
}

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
  upstreamHeaders(repo, path) {
    return formatFor(repo.package_type)?.remoteMetadata?.upstreamHeaders?.(path) ?? {};
  },
  upstreamAuth(repo, path) {
    return formatFor(repo.package_type)?.remoteMetadata?.upstreamAuth?.(repo, path);
  },
  async admit(content, target, files) {
    const admit = formatFor(target.package_type)?.admit;
    if (!admit || target.rclass !== 'local') return;
    for (const file of await files()) await admit(content as RepoContent, target, file);
  },
  async upstreamAddress(repo, path, metadata) {
    return formatFor(repo.package_type)?.remoteMetadata?.upstreamAddress?.(path, metadata);
  },
  async listedElsewhere(repo, path, cached) {
    const listed = formatFor(repo.package_type)?.remoteMetadata?.listedElsewhere;
    return listed?.(path, cached);
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
  app.decorate('derivedMetadata', derivedMetadataConsumer(app).register());
  for (const format of FORMATS) if (format.routes) await app.register(documented(format.types[0]!, format.routes));
}

/**
 * A format's routes in a context of their own, each declaring its schema (a summary, its
 * parameters, its body), so that each is in the OpenAPI document under the format's tag. A route
 * without one stops the server from starting: the rule holds for every format to come.
 */
export function documented(
  name: string,
  routes: (app: FastifyInstance) => Promise<void>,
): (app: FastifyInstance) => Promise<void> {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      if (!route.schema?.summary)
        throw new Error(`the ${name} route ${String(route.method)} ${route.url} declares no schema with a summary`);
      route.schema = { tags: [name], ...route.schema };
    });
    await scope.register(routes);
  };
}

/**
 * Keeps what formats derive from repository content (Maven's `maven-metadata.xml`) in step with
 * changes made by any route — a delete in the console, a move, a copy, a restore from the trash —
 * not only those made at the repositories' own addresses, which recalculate at once.
 */
function derivedMetadataConsumer(app: FastifyInstance): OutboxConsumer {
  const content = systemContent(app);
  const changed = async (repoKey: string | undefined, path: string | undefined) => {
    if (!repoKey || path === undefined) return;
    const repo = await content.repository(repoKey).catch(() => undefined);
    const hooks = repo && app.plainPaths.get(repo.package_type);
    if (repo && hooks) await hooks.changed(repo, path);
  };
  return new OutboxConsumer(
    app,
    'derived-metadata',
    async (event) => {
      switch (event.type) {
        case 'artifact.deployed':
        case 'artifact.deleted':
        case 'artifact.restored':
          return changed(event.repoKey, event.path);
        case 'artifact.moved':
          await changed(event.repoKey, event.path);
          return changed(event.payload.to.repoKey, event.payload.to.path);
        case 'artifact.copied':
          return changed(event.payload.to.repoKey, event.payload.to.path);
        default:
          return undefined;
      }
    },
    { from: 'beginning' },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The plain-path hooks by package type (Maven, Gradle); generic repositories have none. */
    plainPaths: ReadonlyMap<string, PlainPaths>;
    /** Recalculates derived metadata after changes made elsewhere (`drain()` in tests; otherwise every second). */
    derivedMetadata: OutboxConsumer;
  }
}
