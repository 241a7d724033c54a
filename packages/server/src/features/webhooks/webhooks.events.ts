import { TRASHCAN_REPO, type StoredEvent, type WebhookDomain } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { RepositoryRow } from '../../db/schema.js';
import { findItem, systemContent } from '../artifacts/index.js';
import { findRepository } from '../repositories/index.js';

/** One thing that happened, as webhooks of a domain are told of it. */
export interface DomainEvent {
  domain: WebhookDomain;
  eventType: string;
  data: Record<string, unknown>;
  /** The repository it happened in (the repository domains' criteria pick by it). */
  repo?: { key: string; rclass: string };
  /** The path the criteria's patterns are matched against (a file's, or a build's name). */
  subject: string;
  /** Only these subscriptions are told (a policy's rule names the webhooks of its violations). */
  only?: string[];
}

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * What an outbox event means to webhooks, per domain: an artifact deployed is `artifact/deployed`
 * (and, in a Docker repository, `docker/pushed` — the format says so), a property set is one
 * `artifact_property/added` per key, a build uploaded is `build/uploaded` … Events of the trash
 * can and those no domain lists (tokens, groups, permissions) mean nothing.
 */
export async function domainEventsOf(app: FastifyInstance, event: StoredEvent): Promise<DomainEvent[]> {
  const { db } = app;
  switch (event.type) {
    case 'artifact.deployed':
    case 'artifact.deleted':
    case 'artifact.moved':
    case 'artifact.copied':
    case 'artifact.property.added':
    case 'artifact.property.deleted': {
      if (event.repoKey === TRASHCAN_REPO) return [];
      const repo = await findRepository(db, event.repoKey);
      if (!repo) return [];
      const where = { key: repo.key, rclass: repo.rclass };
      const file = { repo_key: event.repoKey, path: event.path, name: nameOf(event.path) };
      const found: DomainEvent[] = [];
      const artifact = (eventType: string, data: Record<string, unknown>) =>
        found.push({ domain: 'artifact', eventType, data: { ...file, ...data }, repo: where, subject: event.path });
      if (event.type === 'artifact.deployed') {
        artifact(event.payload.cached ? 'cached' : 'deployed', {
          size: event.payload.size,
          sha256: event.payload.sha256,
        });
      } else if (event.type === 'artifact.deleted') {
        artifact('deleted', {
          ...(event.payload.sha256 !== undefined ? { sha256: event.payload.sha256 } : {}),
          ...(event.payload.size !== undefined ? { size: event.payload.size } : {}),
        });
      } else if (event.type === 'artifact.moved' || event.type === 'artifact.copied') {
        const target = await findItem(db, event.payload.to.repoKey, event.payload.to.path);
        artifact(event.type === 'artifact.moved' ? 'moved' : 'copied', {
          ...(target && target.folder === 0 ? { size: Number(target.size), sha256: target.sha256 } : {}),
          source_repo_path: `${event.repoKey}/${event.path}`,
          target_repo_path: `${event.payload.to.repoKey}/${event.payload.to.path}`,
        });
      } else {
        const item = await findItem(db, event.repoKey, event.path);
        const facts = item && item.folder === 0 ? { sha256: item.sha256, size: Number(item.size) } : {};
        const changes =
          event.type === 'artifact.property.added'
            ? Object.entries(event.payload.properties).map(([key, values]) => ({ key, values, type: 'added' }))
            : event.payload.keys.map((key) => ({ key, values: [] as string[], type: 'deleted' }));
        for (const change of changes)
          found.push({
            domain: 'artifact_property',
            eventType: change.type,
            data: { ...file, ...facts, property_key: change.key, property_values: change.values },
            repo: where,
            subject: event.path,
          });
      }
      found.push(...(await formatEvents(app, event, repo)));
      return found;
    }
    case 'build.uploaded':
    case 'build.deleted':
    case 'build.promoted': {
      const eventType = event.type.slice('build.'.length);
      return [
        {
          domain: 'build',
          eventType,
          data: {
            build_name: event.payload.name,
            build_number: event.payload.number,
            ...(event.payload.started !== undefined ? { build_started: event.payload.started } : {}),
            ...(event.type === 'build.promoted'
              ? {
                  status: event.payload.status,
                  ...(event.payload.targetRepo ? { target_repo: event.payload.targetRepo } : {}),
                }
              : {}),
          },
          subject: event.payload.name,
        },
      ];
    }
    case 'repository.created':
    case 'repository.updated':
    case 'repository.deleted': {
      const known = event.payload.rclass ? undefined : await findRepository(db, event.repoKey);
      const rclass = event.payload.rclass ?? known?.rclass ?? '';
      const packageType = event.payload.packageType ?? known?.package_type;
      return [
        {
          domain: 'repository',
          eventType: event.type.slice('repository.'.length),
          data: {
            repo_key: event.repoKey,
            ...(rclass ? { repo_type: rclass } : {}),
            ...(packageType ? { package_type: packageType } : {}),
          },
          repo: { key: event.repoKey, rclass },
          subject: '',
        },
      ];
    }
    case 'release_bundle.created':
    case 'release_bundle.signed':
    case 'release_bundle.deleted':
    case 'release_bundle.received':
    case 'release_bundle.removed':
    case 'distribution.changed':
      return releaseBundleEvents(event);
    case 'security.violation': {
      const v = event.payload;
      return [
        {
          domain: 'security',
          eventType: 'violation_detected',
          data: {
            watch_name: v.watch,
            policy_name: v.policy,
            rule_name: v.rule,
            type: v.kind,
            issue_id: v.issue,
            cves: v.cves,
            severity: v.severity,
            summary: v.summary,
            fixed_versions: v.fixedVersions,
            repo_key: event.repoKey,
            path: event.path,
            package_type: v.packageType,
            package_name: v.name,
            package_version: v.version,
            component: v.component,
          },
          subject: event.path,
          only: v.webhooks,
        },
      ];
    }
    case 'user.created':
    case 'user.updated':
    case 'user.deleted':
      return [
        {
          domain: 'user',
          eventType: event.type.slice('user.'.length),
          data: { name: event.payload.name },
          subject: event.payload.name,
        },
      ];
    default:
      return [];
  }
}

type BundleEvent = Extract<StoredEvent, { type: `release_bundle.${string}` | 'distribution.changed' }>;

/** The release bundle domains: made, signed, deleted here; received or deleted by another deployment; distributed. */
function releaseBundleEvents(event: BundleEvent): DomainEvent[] {
  const { name, version, project } = event.payload;
  const bundle = { release_bundle_name: name, release_bundle_version: version, project_key: project };
  const one = (domain: WebhookDomain, eventType: string, data: Record<string, unknown>): DomainEvent => ({
    domain,
    eventType,
    data: { ...bundle, ...data },
    subject: name,
  });
  switch (event.type) {
    case 'release_bundle.created':
      return [one('release_bundle', 'created', { release_bundle_size: event.payload.artifacts })];
    case 'release_bundle.signed':
      return [
        one('release_bundle', 'signed', {
          signing_key: event.payload.signingKey,
          key_fingerprint: event.payload.fingerprint,
        }),
      ];
    case 'release_bundle.deleted':
      return [one('release_bundle', 'deleted', {})];
    // on a target: the bundle's own domain, and JFrog's older one of distribution targets
    case 'release_bundle.received':
      return [
        one('artifactory_release_bundle', 'received', {
          release_bundle_size: event.payload.artifacts,
          source: event.payload.from,
        }),
        one('destination', 'received', { source: event.payload.from }),
      ];
    case 'release_bundle.removed':
      return [
        one('artifactory_release_bundle', 'deleted', { source: event.payload.from }),
        one('destination', 'delete_completed', { source: event.payload.from }),
      ];
    case 'distribution.changed': {
      const { action, status, target, message } = event.payload;
      // JFrog's event types: distribute_started … delete_failed; a started one is 'in progress'
      const shown = status === 'started' ? 'in progress' : status;
      return [
        one('distribution', `${action}_${status}`, {
          type: action,
          status: shown,
          edge_node_info_list: [{ site_name: target, status: shown, ...(message ? { message } : {}) }],
        }),
      ];
    }
    default:
      return [];
  }
}

/** What the repository's format makes of the event in its own domain (Docker tags). */
async function formatEvents(app: FastifyInstance, event: StoredEvent, repo: RepositoryRow): Promise<DomainEvent[]> {
  const hook = app.formatRegistry.for(repo.package_type)?.domainEvents;
  if (!hook) return [];
  const described = await hook(event, repo, systemContent(app));
  return described.map((d) => ({
    domain: d.domain as WebhookDomain,
    eventType: d.eventType,
    data: d.data,
    repo: { key: repo.key, rclass: repo.rclass },
    subject: typeof d.data.path === 'string' ? d.data.path : event.type === 'artifact.deployed' ? event.path : '',
  }));
}
