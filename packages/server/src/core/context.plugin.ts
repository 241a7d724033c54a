import type { OutboundProxy } from './outbound.js';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db, DbEngine } from '../db/database.js';
import type { BinaryStore } from '../storage/binary-store.js';
import type { JobRunner } from './jobs.js';
import type { Work } from './work.js';
import type { RepositoryRow } from '../db/schema.js';

/** What the rest of the server asks of the package formats (see `formats/index.ts`). */
export interface FormatFacts {
  /** The upstream offered when quick-creating a remote repository of this type. */
  defaultUpstream(packageType: string): string | undefined;
  /**
   * How long a remote repository's cached file at `path` stays fresh: the repository's metadata
   * retrieval period for the files its format calls metadata; undefined: for ever (a package file).
   */
  metadataMaxAgeMs(repo: RepositoryRow, path: string): number | undefined;
  /** Where a remote repository's upstream serves a stored path: relative to its URL (URL-encoded) or absolute. */
  upstreamPath(repo: RepositoryRow, path: string): string;
  /** Headers a remote repository's upstream needs to answer a path as its format expects. */
  upstreamHeaders(repo: RepositoryRow, path: string): Record<string, string>;
  /**
   * A registry upstream's token flow for a path (Docker's: a held token, else a challenge
   * answered from the realm); undefined: the repository's credentials are sent at once.
   */
  upstreamAuth(
    repo: RepositoryRow,
    path: string,
  ):
    | {
        held(): string | undefined;
        answer(
          challenge: string | null,
          allowed: readonly string[],
          proxy?: OutboundProxy,
        ): Promise<string | undefined>;
      }
    | undefined;
  /**
   * Refuses files entering a local repository by a copy, a move or a property change where its
   * format's rules refuse them (see the Format contract's `admit`); `content` is the artifacts door,
   * `files` lists them (asked only when the format has rules to apply).
   */
  admit(
    content: object,
    target: RepositoryRow,
    files: () => Promise<{ path: string; properties: Record<string, string[]>; read(): Promise<Buffer> }[]>,
  ): Promise<void>;
  /** Where a remote repository's upstream metadata says a path is served (see the Format contract). */
  upstreamAddress(
    repo: RepositoryRow,
    path: string,
    metadata: (path: string) => Promise<Buffer | undefined>,
  ): Promise<string | undefined>;
  /** Where a remote repository's upstream listed a path that lives on another host (see the Format contract). */
  listedElsewhere(
    repo: RepositoryRow,
    path: string,
    cached: (path: string) => Promise<Buffer | undefined>,
  ): Promise<string | undefined>;
}

/** The application's shared parts, decorated on the Fastify instance for every feature. */
export interface AppContext {
  config: Config;
  db: Db;
  dbEngine: DbEngine;
  /** The access service's logger (log key jfac). */
  accessLog: Logger;
  /** This process's node id in the `nodes` table. */
  nodeId: string;
  /** Writes out the log lines this process has gathered; resolves once its log files hold them. */
  flushLogs(): Promise<void>;
  /** Where artifact contents live. */
  binaries: BinaryStore;
  /** Scheduled jobs: features register theirs. */
  jobs: JobRunner;
  /** The durable-work kernel: features define their kinds of task and submit tasks. */
  work: Work;
  /** Whether this process polls the outbox and runs the schedules: one per node (its first worker). */
  polls: boolean;
  formats: FormatFacts;
}

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyInstance extends AppContext {}
}

/** Makes the application's shared parts available to every feature. */
export const contextPlugin = fp(
  (app: FastifyInstance, context: AppContext) => {
    app.decorate('config', context.config);
    app.decorate('db', context.db);
    app.decorate('dbEngine', context.dbEngine);
    app.decorate('accessLog', context.accessLog);
    app.decorate('nodeId', context.nodeId);
    app.decorate('flushLogs', context.flushLogs);
    app.decorate('binaries', context.binaries);
    app.decorate('jobs', context.jobs);
    app.decorate('work', context.work);
    app.decorate('polls', context.polls);
    app.decorate('formats', context.formats);
  },
  { name: 'arca-context' },
);
