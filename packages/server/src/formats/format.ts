import type { StoredEvent } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { OutboundProxy } from '../core/outbound.js';
import type { ItemRow, RepositoryRow } from '../db/schema.js';
import type { PlainPaths, RepoContent } from '../features/artifacts/index.js';

/*
 * The contract of a package format: what one folder `formats/<type>/` exports, listed in the one
 * registry, `FORMATS` in `formats/index.ts`. The features see the formats only through that
 * registry (`app.formatRegistry`), typed by this file.
 */

/**
 * A package version as a format's indexer reads it off a stored file: what the package catalogue
 * and search show. `fields` hold the type-specific fields of spec part 1 §3 (npm dependencies,
 * Maven groupId/artifactId, Docker tags …).
 */
export interface PackageVersionRecord {
  /** The package's name as its clients spell it (`@scope/name`, `org.acme:app`, `library/nginx`). */
  name: string;
  version: string;
  description?: string;
  licenses?: string[];
  /** Keywords or tags. */
  tags?: string[];
  /** Declared runtime dependencies: name → version range. */
  dependencies?: Record<string, string>;
  /** The readme as published (Markdown or plain text). */
  readme?: string;
  fields: Record<string, string | string[]>;
}

/** A file entering a repository by a copy, a move or a property change: where, with which properties, its bytes. */
export interface AdmittedFile {
  path: string;
  properties: Record<string, string[]>;
  read(): Promise<Buffer>;
}

/** A package a remote repository's upstream index knows of (the remote search). */
export interface UpstreamHit {
  name: string;
  version: string;
  /** Where the repository serves it, relative to the repository (`lodash/-/lodash-4.17.21.tgz`). */
  path: string;
  description?: string;
}

/** A registry upstream's token flow for one path (see `remoteMetadata.upstreamAuth`). */
export interface UpstreamAuth {
  /** A token fetched earlier for the path's scope, still valid: sent with the first request. */
  held(): string | undefined;
  /**
   * What to send again after the upstream answered 401 with this `WWW-Authenticate` header;
   * undefined when nothing more can be tried. `allowed` names the outbound hosts allowed.
   */
  answer(challenge: string | null, allowed: readonly string[], proxy?: OutboundProxy): Promise<string | undefined>;
}

/** The coordinates a format's repository layout gives a file (Maven's `group/artifact/version/file`). */
export interface LayoutFile {
  /** The module (Maven's artifactId). */
  module: string;
  version: string;
  /** The version the file name carries (a unique snapshot's timestamp, else the version). */
  fileVersion: string;
}

/** Fetches a path of a remote repository's upstream (its credentials, allow-list and timeouts applied); throws when unreachable. */
export type UpstreamFetch = (path: string, headers?: Record<string, string>) => Promise<Response>;

/**
 * What makes a package format: one folder `formats/<type>/` with an object of this shape, listed
 * in `formats/index.ts`. A format reaches repository content only through the artifacts
 * feature's door (`repoContent(request)`), which authorises every read and write; it never
 * touches the store. Everything but `types` is optional: `generic` needs only its routes.
 */
export interface Format {
  /** The repositories' package types this format serves (`npm`; `docker` and `oci`; …). */
  types: readonly string[];
  /** The public upstream offered when an administrator quick-creates a remote repository. */
  defaultUpstream?: string;
  /**
   * The client-facing routes (`/artifactory/api/npm/{repo}/…`, `/v2/…`), registered at the root
   * in an encapsulated context of their own (content-type parsers, hooks and all).
   */
  routes?: (app: FastifyInstance) => Promise<void>;
  /**
   * Reads a stored file into a package version record (a `package.json` inside an npm tarball,
   * a POM, an image manifest); undefined when the file is no package (a checksum, metadata).
   */
  index?: (file: ItemRow, content: RepoContent) => Promise<PackageVersionRecord | undefined>;
  /**
   * Every file of one package version, and no other version's, lies in the folder of the lead file
   * `index` reads (Maven's `group/artifact/version/`, PyPI's `project/version/`, an image tag's):
   * what a security policy blocks of a version is then that whole folder, not its lead file alone.
   */
  versionFolder?: boolean;
  /**
   * The operating system packages a stored package version holds — an image's, read off its
   * layers' package databases (`databases`: those the formats declare) — for matching against its
   * distribution's advisories; undefined when the file is no such version.
   */
  installed?: (
    file: ItemRow,
    content: RepoContent,
    databases: readonly InstalledDatabase[],
  ) => Promise<InstalledPackages | undefined>;
  /**
   * The database a system keeps of the format's packages it installed (dpkg's status, rpm's
   * `rpmdb.sqlite`): what an image's layers are read by.
   */
  installedDatabase?: InstalledDatabase;
  /**
   * Remote metadata: the paths of a remote repository that describe packages rather than hold
   * them (packuments, `maven-metadata.xml`, simple indexes, tag lists). Such a cached file is
   * fetched again from the upstream once it is older than the repository's metadata retrieval
   * period; the upstream failing, the cached copy is served. Package files never expire.
   * `upstreamPath` maps a stored path to where the upstream serves it when the two differ: a path
   * relative to the repository's URL, URL-encoded (an npm packument stored at
   * `.npm/{name}/package.json` is `{name}` upstream), or an absolute address (a file a Python
   * index lists on another host). The repository's credentials are sent to its own host only.
   */
  remoteMetadata?: {
    isMetadata: (path: string) => boolean;
    upstreamPath?: (path: string, repositoryUrl: string) => string;
    /** Headers the upstream needs to answer a path as the format expects (a registry's manifest media types). */
    upstreamHeaders?: (path: string) => Record<string, string>;
    /**
     * How a registry upstream is asked, as Docker clients ask it: with a token held for the path's
     * scope, else without credentials first, answering its challenge (a bearer token from its
     * realm, the repository's credentials sent there) — instead of with the credentials at once.
     * Undefined for a path that needs no such flow.
     */
    upstreamAuth?: (repo: RepositoryRow, path: string) => UpstreamAuth | undefined;
    /**
     * Where the upstream's own metadata says a path is served, read off that metadata (a Cargo
     * index's `config.json` names the address crates download from, on its host or another);
     * undefined: at `upstreamPath`. `metadata` reads the repository's copy of an upstream metadata
     * file, fetching it when it is missing or stale. Credentials go to the repository's own host only.
     */
    upstreamAddress?: (
      path: string,
      metadata: (path: string) => Promise<Buffer | undefined>,
    ) => Promise<string | undefined>;
    /**
     * The address on another host than its own where the upstream itself listed a path (a file a
     * Python index links on a files host), or undefined: `cached` reads what the repository holds,
     * without fetching. A remote repository asks another host only at an address this answers;
     * without it, never.
     */
    listedElsewhere?: (
      path: string,
      cached: (path: string) => Promise<Buffer | undefined>,
    ) => Promise<string | undefined>;
  };
  /** Hooks for a format served at the repositories' own addresses (see `PlainPaths`). */
  plainPaths?: (app: FastifyInstance) => PlainPaths;
  /**
   * A file about to enter a local repository other than by a deploy at its address — a copy, a
   * move, a property change — checked by the rules its deploy passes: throws to refuse it (a
   * released version that other content would replace in a signed index, say).
   */
  admit?: (content: RepoContent, target: RepositoryRow, file: AdmittedFile) => Promise<void>;
  /**
   * Asks a remote repository's upstream index for packages matching `term` (wildcards removed):
   * the console's remote search. Throws with a message for the user when the upstream fails.
   */
  searchUpstream?: (term: string, fetch: UpstreamFetch) => Promise<UpstreamHit[]>;
  /**
   * The format's repository layout, for the layout searches (`/api/search/versions`,
   * `/api/search/latestVersion`): the coordinates of a stored path, how versions order, which
   * versions are integration (snapshot) versions.
   */
  layout?: {
    parse(path: string): LayoutFile | undefined;
    compareVersions(a: string, b: string): number;
    isIntegration(version: string): boolean;
  };
  /**
   * How the format's package versions order, in the terms of the advisory databases: the OSV
   * ecosystems whose versions order this way (`npm`; `Debian` and `Ubuntu`, a release after a
   * colon aside), the order itself, and the form such a database writes a stored version in (Go's
   * `v1.2.3` is `1.2.3` there) when it differs.
   */
  versions?: {
    ecosystems: readonly string[];
    compare(a: string, b: string): number;
    /** Whether the ecosystem can order this version at all. */
    valid(version: string): boolean;
    asAdvised?(version: string): string;
    /**
     * Advisories of the ecosystem name a distribution's release (`Debian:12`): a package alone, its
     * release unknown, is not matched (an image's contents are, the release read off the image).
     */
    perRelease?: boolean;
    /** A package's name as the advisories write it, where the ecosystem folds names (PyPI's normalised names). */
    name?(name: string): string;
  };
  /**
   * The classes a stored archive holds, for the class search: which file names are such archives
   * (their extensions, lower case) and the class an archive entry is (undefined: no class).
   */
  classes?: {
    archiveExtensions: readonly string[];
    classOf(entryPath: string): { name: string; inner: boolean } | undefined;
  };
  /**
   * What a change of the format's files means in its own domain, for webhooks subscribed to it (a
   * tag's manifest deployed is a Docker tag pushed); none when it means nothing there.
   */
  domainEvents?: (event: StoredEvent, repo: RepositoryRow, content: RepoContent) => Promise<FormatEvent[]>;
}

/** A database of installed packages in a file system (see `Format.installedDatabase`). */
export interface InstalledDatabase {
  /** What it is called in messages (`dpkg`, `rpm`). */
  name: string;
  /** Where it lies, as tar entry names without a leading `/`: files, or folders (ending in `/`) whose files it is. */
  paths: readonly string[];
  /** The package URL type of its packages (`deb`, `rpm`). */
  purlType: string;
  /**
   * The advisory ecosystem of a system that keeps it, with its release, from the fields of its
   * os-release (`Debian:12`, `Rocky Linux:9`); the system's own name where OSV has none.
   */
  ecosystem(release: Record<string, string>): string;
  /** Its packages, from its files' contents; throws, saying why, when they cannot be read. */
  read(files: Buffer[]): InstalledPackages['packages'];
}

/** What a package version installs (see `Format.installed`). */
export interface InstalledPackages {
  /** The distribution's advisory ecosystem with its release (`Debian:12`), as OSV names it. */
  ecosystem: string;
  /** Each package by the name its advisories use (Debian's source package), its binary package's name and version. */
  packages: { name: string; binary: string; version: string }[];
  /** How its packages' URLs are written: their type, the distribution (os-release's id) and its release. */
  purl?: { type: string; namespace: string; distro: string };
  /** Why its packages are not matched (a distribution or a layer type not read), when they are not. */
  unsupported?: string;
  /**
   * The language packages found in its layers (an application's `node_modules`, Python's
   * `site-packages`), by their ecosystem (`npm`, `PyPI`): matched whatever the distribution.
   */
  languages?: { ecosystem: string; packages: { name: string; version: string; path: string }[] }[];
}

/** Something that happened in a format's own terms (a Docker tag pushed), for webhooks of its domain. */
export interface FormatEvent {
  /** The webhook domain (`docker`). */
  domain: string;
  eventType: string;
  data: Record<string, unknown>;
}
