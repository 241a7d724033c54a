import { z } from 'zod';

/*
 * Events: what changed, as the outbox records it and webhooks, replication and federation read
 * it. One discriminated union, so that every producer writes a payload of the right shape and
 * every consumer reads one.
 */

const location = z.object({ repoKey: z.string(), path: z.string() });
const properties = z.record(z.string(), z.array(z.string()));

/** Events about repository content: `repoKey` and `path` say where. */
const artifactEvents = [
  z.object({
    type: z.literal('artifact.deployed'),
    repoKey: z.string(),
    path: z.string(),
    /** `cached`: fetched from a remote repository's upstream. */
    payload: z.object({
      sha256: z.string(),
      size: z.number(),
      cached: z.boolean().optional(),
      /** Put back from the archive. */
      restored: z.boolean().optional(),
    }),
  }),
  z.object({
    type: z.literal('artifact.deleted'),
    repoKey: z.string(),
    path: z.string(),
    /** `trashPath` when moved to the trash can; `permanently` when removed from it; `emptied` files when emptied. */
    payload: z.object({
      trashPath: z.string().optional(),
      permanently: z.boolean().optional(),
      emptied: z.number().optional(),
      /** Taken out by a retention policy into the archive. */
      archived: z.boolean().optional(),
      /** A file's (not a folder's) checksum and size, for those who are told of the deletion. */
      sha256: z.string().optional(),
      size: z.number().optional(),
    }),
  }),
  z.object({
    type: z.literal('artifact.moved'),
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({ to: location }),
  }),
  z.object({
    type: z.literal('artifact.copied'),
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({ to: location }),
  }),
  z.object({
    type: z.literal('artifact.restored'),
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({ trashPath: z.string() }),
  }),
  z.object({
    type: z.literal('artifact.property.added'),
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({ properties, recursive: z.boolean() }),
  }),
  z.object({
    type: z.literal('artifact.property.deleted'),
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({ keys: z.array(z.string()), recursive: z.boolean() }),
  }),
] as const;

/** What kind of repository it is (older events of updates and deletions did not say). */
const repositoryKind = z.object({ rclass: z.string(), packageType: z.string().optional() });
const repositoryEvents = [
  z.object({ type: z.literal('repository.created'), repoKey: z.string(), payload: repositoryKind }),
  z.object({ type: z.literal('repository.updated'), repoKey: z.string(), payload: repositoryKind.partial() }),
  z.object({ type: z.literal('repository.deleted'), repoKey: z.string(), payload: repositoryKind.partial() }),
] as const;

const named = z.object({ name: z.string() });

/** Events about who may do what: users, groups, permission targets and tokens. */
const accessEvents = [
  z.object({ type: z.literal('user.created'), payload: named }),
  z.object({ type: z.literal('user.updated'), payload: named }),
  z.object({ type: z.literal('user.deleted'), payload: named }),
  z.object({ type: z.literal('group.created'), payload: named }),
  z.object({ type: z.literal('group.updated'), payload: named }),
  z.object({ type: z.literal('group.deleted'), payload: named }),
  z.object({ type: z.literal('permission.saved'), payload: named }),
  z.object({ type: z.literal('permission.deleted'), payload: named }),
  z.object({ type: z.literal('token.created'), payload: z.object({ id: z.string(), user: z.string() }) }),
  z.object({ type: z.literal('token.revoked'), payload: z.object({ id: z.string(), user: z.string() }) }),
] as const;

const build = z.object({ name: z.string(), number: z.string(), started: z.string().optional() });

/** Events about published builds. */
const buildEvents = [
  z.object({ type: z.literal('build.uploaded'), payload: build }),
  z.object({ type: z.literal('build.deleted'), payload: build }),
  z.object({
    type: z.literal('build.promoted'),
    payload: build.extend({ status: z.string(), targetRepo: z.string().optional(), copy: z.boolean() }),
  }),
] as const;

const bundle = z.object({ name: z.string(), version: z.string(), project: z.string() });

/** Events about release bundles: made, signed, promoted, deleted, distributed, received. */
const releaseBundleEvents = [
  z.object({ type: z.literal('release_bundle.created'), payload: bundle.extend({ artifacts: z.number() }) }),
  z.object({
    type: z.literal('release_bundle.signed'),
    payload: bundle.extend({ signingKey: z.string(), fingerprint: z.string() }),
  }),
  z.object({ type: z.literal('release_bundle.deleted'), payload: bundle }),
  z.object({
    type: z.literal('release_bundle.promoted'),
    payload: bundle.extend({ environment: z.string(), repositories: z.array(z.string()) }),
  }),
  /** Distributed here by another deployment (`from`: its address), or deleted here by it. */
  z.object({
    type: z.literal('release_bundle.received'),
    payload: bundle.extend({ from: z.string(), artifacts: z.number() }),
  }),
  z.object({ type: z.literal('release_bundle.removed'), payload: bundle.extend({ from: z.string() }) }),
  /** A distribution to one target (or a deletion there) started, completed, was aborted or failed. */
  z.object({
    type: z.literal('distribution.changed'),
    payload: bundle.extend({
      status: z.enum(['started', 'completed', 'aborted', 'failed']),
      action: z.enum(['distribute', 'delete']),
      target: z.string(),
      message: z.string().optional(),
    }),
  }),
] as const;

/** Events of security scanning: a scan found a violation of a policy whose rule notifies webhooks. */
const scanningEvents = [
  z.object({
    type: z.literal('security.violation'),
    /** The version's lead file. */
    repoKey: z.string(),
    path: z.string(),
    payload: z.object({
      watch: z.string(),
      policy: z.string(),
      rule: z.string(),
      kind: z.enum(['security', 'license']),
      /** The advisory's id, or the license's. */
      issue: z.string(),
      severity: z.string(),
      summary: z.string(),
      cves: z.array(z.string()),
      fixedVersions: z.array(z.string()),
      packageType: z.string(),
      name: z.string(),
      version: z.string(),
      /** The package of an image it was found in (empty for the version itself). */
      component: z.string(),
      /** The webhooks the rule tells. */
      webhooks: z.array(z.string()),
    }),
  }),
] as const;

export const arcaEventSchema = z.discriminatedUnion('type', [
  ...artifactEvents,
  ...scanningEvents,
  ...repositoryEvents,
  ...accessEvents,
  ...buildEvents,
  ...releaseBundleEvents,
]);
/** One event as it is written to and read from the outbox. */
export type ArcaEvent = z.infer<typeof arcaEventSchema>;
export type ArcaEventType = ArcaEvent['type'];

/** An event read back from the outbox, with who caused it and when. */
export type StoredEvent = ArcaEvent & { id: string; seq: number; actor: string; createdAt: number };
