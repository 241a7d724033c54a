import type { Format } from '../../formats/format.js';
import type { DeployRequest, RepoContent } from './artifacts.content.js';
import type { Resolved } from './artifacts.resolve.js';
import type { ItemRow, RepositoryRow } from '../../db/schema.js';

/*
 * What the door itself calls of the formats: the hooks of the formats served at the repositories'
 * own addresses, and the registry the composition root hands to the features. The contract a
 * format implements is `formats/format.ts`.
 */

/** A file a format answers that no repository stores as such (a checksum of a stored file, merged metadata). */
export interface DerivedFile {
  body: Buffer;
  contentType: string;
}

/**
 * The hooks of a format whose clients use the repositories' own addresses
 * `/artifactory/{repo}/{path}` (Maven and Gradle) instead of routes of their own: the plain
 * routes call them for a repository of the format's types. Each gets the caller's door.
 */
export interface PlainPaths {
  /**
   * A deploy before anything is stored, with the repository it lands in: throws to refuse it
   * (checksum policy, redeploy policy, a descriptor that does not match its path), answers the
   * request to store (its body perhaps read and checked already), or `taken` with the stored file
   * that stands for it when nothing is to be stored (a checksum file that agrees with its file,
   * metadata the server calculates itself).
   */
  deploy(
    content: RepoContent,
    target: RepositoryRow,
    request: DeployRequest,
  ): Promise<DeployRequest | { taken: ItemRow | undefined }>;
  /** After a file was stored or removed under `path`: what the server derives from it, calculated again. */
  changed(repo: RepositoryRow, path: string): Promise<void>;
  /**
   * A read the format answers itself, before the repository's stored files are consulted; the
   * item a path stands for (the newest unique snapshot for a `-SNAPSHOT` file name), or a derived
   * file. Undefined: the stored file, as for generic files.
   */
  read(content: RepoContent, repo: RepositoryRow, path: string): Promise<Resolved | DerivedFile | undefined>;
}

/** The formats the server speaks, as the composition root hands them to the features. */
export interface FormatRegistry {
  readonly all: readonly Format[];
  /** The format serving a package type; undefined when none does (the repository then holds generic files). */
  for(packageType: string): Format | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The package formats, injected by the composition root: features reach formats only through it. */
    formatRegistry: FormatRegistry;
  }
}
