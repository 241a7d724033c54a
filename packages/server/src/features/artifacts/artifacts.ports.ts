import type { FastifyRequest } from 'fastify';
import type { SigningKeyInfo } from '@arca/contracts';
import type { ItemRow, UserRow } from '../../db/schema.js';
import type { UploadSessions } from './artifacts.uploads.js';

/**
 * What a package format's own sign-in asks of identity (npm login, npm's web login, Docker's
 * token endpoint), through the door: the identity features provide it, the formats never import
 * them. Every check keeps the lockout and records what an administrator would expect.
 */
export interface ClientSignIn {
  /** A user's name and password checked (lockout applied): the user, or 401 / 429. */
  password(name: string, password: string): Promise<UserRow>;
  /** The user's current second-factor code checked (wrong codes count towards the lockout). */
  secondFactor(user: UserRow, code: string): Promise<void>;
  /** An access token for the user, lasting the security settings' default token lifetime (recorded). */
  issueToken(user: UserRow, description: string): Promise<string>;
  /** Opens a browser sign-in for a client: the ids of its approval page and of its polling address. */
  openWebLogin(client: { client: string; hostname: string }): Promise<{ loginId: string; doneId: string }>;
  /** Where a browser sign-in stands: still pending, or the user who approved it (once). */
  pollWebLogin(doneId: string): Promise<'pending' | UserRow>;
  /** A short-lived registry token for the caller, and how many seconds it lasts. */
  registryToken(): Promise<{ token: string; seconds: number }>;
  /** Whether the deployment lets anonymous callers in at all (the security settings). */
  anonymousAccess(): Promise<boolean>;
}

/** What signs a repository's metadata (Debian's Release, RPM's repomd.xml, Terraform's SHA256SUMS). */
export interface MetadataSigner {
  key: SigningKeyInfo;
  /** An ASCII-armored detached signature (Release.gpg, repomd.xml.asc). */
  detached(data: Buffer): Promise<string>;
  /** The text signed in the clear (InRelease). */
  cleartext(text: string): Promise<string>;
}

/** An advisory the deployment holds that affects a package a client asked about (see `DoorPorts.advisories`). */
export interface HeldAdvisory {
  /** The package as the client named it. */
  name: string;
  /** The advisory's id (`GHSA-…`) and its CVE aliases. */
  id: string;
  cves: string[];
  summary: string;
  /** Critical, High, Medium, Low or Unknown. */
  severity: string;
  /** Where to read about it. */
  url: string;
  /** The affected versions as the advisory gives them: OSV ranges (SEMVER or ECOSYSTEM) and a list. */
  ranges: { type: string; events: Record<string, string>[] }[];
  versions: string[];
}

/**
 * What the door is handed by the composition root (`features/index.ts`): from other features,
 * sign-in and signing (a format reaches them through the door, never the features); from its own,
 * the uploads received in parts, shared by every request of the process.
 */
export interface DoorPorts {
  /** The client sign-in of a request's caller (the identity features). */
  clientSignIn: (request: FastifyRequest) => ClientSignIn;
  /** The key that signs a repository's metadata now: its own, else the deployment's (the signing feature). */
  metadataSigner: (repoKey: string) => Promise<MetadataSigner>;
  /** Uploads received in parts (`registerArtifactJobs` makes them and sweeps the stale ones). */
  uploads: UploadSessions;
  /**
   * The advisories held (the security scanning feature's) that affect any of the given versions of
   * packages of an ecosystem (`npm`): what a format adds to its clients' audits.
   */
  advisories: (ecosystem: string, packages: Record<string, string[]>) => Promise<HeldAdvisory[]>;
  /** Why a stored file may not be downloaded (a security policy blocks its package version), or undefined. */
  downloadBlock: (item: Pick<ItemRow, 'repo_key' | 'path'>) => Promise<string | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What the door is handed at registration (see `DoorPorts`). */
    doorPorts: DoorPorts;
  }
}
