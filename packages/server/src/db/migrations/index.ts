import type { Migration } from 'kysely';
import * as foundation from './2026-11-22-foundation.js';
import * as repositories from './2026-11-22-repositories.js';
import * as security from './2026-11-22-security.js';
import * as projects from './2026-11-22-security-projects.js';
import * as totp from './2026-11-22-security-totp.js';
import * as kernel from './2026-11-23-kernel.js';
import * as reads from './2026-11-24-reads.js';
import * as npm from './2026-11-25-npm.js';
import * as catalogue from './2026-11-26-catalogue.js';
import * as maven from './2026-11-27-maven.js';
import * as search from './2026-11-28-search.js';
import * as tokens from './2026-11-29-tokens.js';
import * as builds from './2026-11-30-builds.js';
import * as hardening from './2026-12-01-hardening.js';
import * as backbone from './2026-12-02-backbone.js';
import * as webhooks from './2026-12-03-webhooks.js';
import * as operations from './2026-12-04-operations.js';
import * as storageSamples from './2026-12-05-storage-samples.js';
import * as rateLimits from './2026-12-06-rate-limits.js';
import * as repositoryDeletions from './2026-12-07-repository-deletions.js';
import * as signingKeys from './2026-12-08-signing-keys.js';
import * as archive from './2026-12-09-archive.js';
import * as nameSearchRows from './2026-12-10-name-search-rows.js';
import * as settings from './2026-12-11-settings.js';
import * as keys from './2026-12-12-keys.js';
import * as sshTrustedKeys from './2026-12-13-ssh-trusted-keys.js';
import * as directory from './2026-12-14-directory.js';
import * as deployments from './2026-12-15-deployments.js';
import * as federation from './2026-12-16-federation.js';
import * as replications from './2026-12-17-replications.js';
import * as licenseBuckets from './2026-12-18-license-buckets.js';
import * as integrations from './2026-12-19-integrations.js';
import * as findings from './2026-12-20-findings.js';
import * as remoteSettings from './2026-12-21-remote-settings.js';
import * as madeFiles from './2026-12-22-made-files.js';
import * as work from './2026-12-23-work.js';
import * as workLeases from './2026-12-24-work-leases.js';
import * as changeFeed from './2026-12-25-change-feed.js';
import * as releaseBundles from './2026-12-26-release-bundles.js';
import * as scanning from './2026-12-27-scanning.js';
import * as scanPolicies from './2026-12-28-scan-policies.js';
import * as scanningRoles from './2026-12-29-scanning-roles.js';
import * as advisorySources from './2026-12-30-advisory-sources.js';

/**
 * Every migration. They run in the order of their names (Kysely sorts them), so a new name must
 * sort after the last one.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22-foundation': foundation,
  '2026-11-22-repositories': repositories,
  '2026-11-22-security': security,
  '2026-11-22-security-projects': projects,
  '2026-11-22-security-totp': totp,
  '2026-11-23-kernel': kernel,
  '2026-11-24-reads': reads,
  '2026-11-25-npm': npm,
  '2026-11-26-catalogue': catalogue,
  '2026-11-27-maven': maven,
  '2026-11-28-search': search,
  '2026-11-29-tokens': tokens,
  '2026-11-30-builds': builds,
  '2026-12-01-hardening': hardening,
  '2026-12-02-backbone': backbone,
  '2026-12-03-webhooks': webhooks,
  '2026-12-04-operations': operations,
  '2026-12-05-storage-samples': storageSamples,
  '2026-12-06-rate-limits': rateLimits,
  '2026-12-07-repository-deletions': repositoryDeletions,
  '2026-12-08-signing-keys': signingKeys,
  '2026-12-09-archive': archive,
  '2026-12-10-name-search-rows': nameSearchRows,
  '2026-12-11-settings': settings,
  '2026-12-12-keys': keys,
  '2026-12-13-ssh-trusted-keys': sshTrustedKeys,
  '2026-12-14-directory': directory,
  '2026-12-15-deployments': deployments,
  '2026-12-16-federation': federation,
  '2026-12-17-replications': replications,
  '2026-12-18-license-buckets': licenseBuckets,
  '2026-12-19-integrations': integrations,
  '2026-12-20-findings': findings,
  '2026-12-21-remote-settings': remoteSettings,
  '2026-12-22-made-files': madeFiles,
  '2026-12-23-work': work,
  '2026-12-24-work-leases': workLeases,
  '2026-12-25-change-feed': changeFeed,
  '2026-12-26-release-bundles': releaseBundles,
  '2026-12-27-scanning': scanning,
  '2026-12-28-scan-policies': scanPolicies,
  '2026-12-29-scanning-roles': scanningRoles,
  '2026-12-30-advisory-sources': advisorySources,
};
