import { posix } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { cachedConfig } from '../../core/config-cache.js';
import type { Db } from '../../db/database.js';
import type { ItemRow } from '../../db/schema.js';
import type { SpdxLicense } from './licenses.js';
import type { Policy, Watch } from '@arca/contracts';
import {
  blockMessage,
  rulesFor,
  violationsOf,
  type AppliedRule,
  type IgnoreRule,
  type ScannedVersion,
} from './scanning.policies.js';
import { listIgnoreRules, listPolicies, listWatches } from './scanning.policies.store.js';
import { blockingCandidatePages, blockingCandidates } from './scanning.store.js';

/** What downloads are refused, by repository: lead files, or whole version folders, each with its message. */
interface BlockMap {
  repos: Map<string, { paths: Map<string, string>; folders: Map<string, string> }>;
  /** When an ignore rule expires, and what it set aside blocks again. */
  validUntil: number;
  /** What the entries were worked out from: the blocking policies, the watches, the ignore rules (none: nothing blocks). */
  basis?: {
    blocking: Map<string, Policy>;
    watches: Watch[];
    ignoreRules: IgnoreRule[];
    repoKeys: string[] | 'all';
    licences: boolean;
    rulesByRepo: Map<string, AppliedRule[]>;
  };
  /** Settles when every entry has been read (in pages, the event loop free between them). */
  ready: Promise<void>;
}

/** How many versions are read at a time when the map is read whole. */
const PAGE = 2000;

type Key = { repo_key: string; lead_path: string };

/**
 * Reads what the watches' blocking rules refuse now: every scanned version of a watched repository
 * with a violation of a rule that blocks downloads (after the ignore rules), as its lead file —
 * or, where a version's files share a folder (`Format.versionFolder`), as that folder.
 */
async function loadBlockMap(app: FastifyInstance): Promise<BlockMap> {
  const { db } = app;
  const now = Date.now();
  const map: BlockMap = { repos: new Map(), validUntil: Infinity, ready: Promise.resolve() };
  const [policies, watches, ignoreRules] = await Promise.all([listPolicies(db), listWatches(db), listIgnoreRules(db)]);
  const blocking = new Map(
    policies
      .map((p) => ({ ...p, rules: p.rules.filter((r) => r.actions.block_download.active) }))
      .filter((p) => p.rules.length)
      .map((p) => [p.name, p]),
  );
  if (!blocking.size || !watches.some((w) => w.general_data.active)) return map;
  for (const rule of ignoreRules)
    if (rule.expiresAt !== null && rule.expiresAt > now) map.validUntil = Math.min(map.validUntil, rule.expiresAt);

  // the repositories whose downloads may be blocked, and whether versions without findings may be (licences)
  const watching = watches.filter(
    (w) => w.general_data.active && w.assigned_policies.some((p) => blocking.has(p.name)),
  );
  const resources = watching.flatMap((w) => w.project_resources.resources);
  const repoKeys = resources.some((r) => r.type === 'all-repos')
    ? 'all'
    : resources.flatMap((r) => (r.type === 'repository' ? [r.name] : []));
  const licences = watching.some((w) => w.assigned_policies.some((p) => blocking.get(p.name)?.type === 'license'));
  map.basis = { blocking, watches, ignoreRules, repoKeys, licences, rulesByRepo: new Map() };
  // the entries come in pages while the map already answers for the repositories no watch covers
  map.ready = (async () => {
    for await (const rows of blockingCandidatePages(db, repoKeys, licences, PAGE)) {
      apply(app, map, rows, now);
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  // a failed read is not kept: the next download reads again
  map.ready.catch(() => forget(app.db));
  return map;
}

/** Sets the entries of the versions these rows (a scan, and a finding or none, each) describe. */
function apply(app: FastifyInstance, map: BlockMap, rows: Awaited<ReturnType<typeof blockingCandidates>>, now: number) {
  const basis = map.basis!;
  const versions = new Map<string, ScannedVersion & { repoKey: string; leadPath: string }>();
  for (const row of rows) {
    const key = `${row.repo_key}\n${row.lead_path}`;
    let version = versions.get(key);
    if (!version) {
      version = {
        repoKey: row.repo_key,
        leadPath: row.lead_path,
        packageType: row.package_type,
        name: row.name,
        version: row.version,
        licenses: JSON.parse(row.licenses) as SpdxLicense[],
        findings: [],
      };
      versions.set(key, version);
    }
    if (row.advisory_id)
      version.findings.push({
        advisoryId: row.advisory_id,
        aliases: JSON.parse(row.aliases ?? '[]') as string[],
        severity: row.severity ?? 'Unknown',
        summary: row.summary ?? '',
        fixedVersions: JSON.parse(row.fixed_versions ?? '[]') as string[],
        component: row.component ?? '',
      });
  }
  for (const version of versions.values()) {
    let rules = basis.rulesByRepo.get(version.repoKey);
    if (!rules)
      basis.rulesByRepo.set(
        version.repoKey,
        (rules = rulesFor(basis.watches, basis.blocking, { repoKey: version.repoKey })),
      );
    if (!rules.length) continue;
    const [first] = violationsOf(version, rules, basis.ignoreRules, now);
    if (!first) continue;
    let repo = map.repos.get(version.repoKey);
    if (!repo) map.repos.set(version.repoKey, (repo = { paths: new Map(), folders: new Map() }));
    const message = blockMessage(version, first);
    if (app.formatRegistry.for(version.packageType)?.versionFolder)
      repo.folders.set(posix.dirname(version.leadPath), message);
    else repo.paths.set(version.leadPath, message);
  }
}

/**
 * Brings the entries of some versions up to date after their scans changed (new findings, a
 * fixed content, a version gone): only theirs are read again, so that a burst of deploys does
 * not read every blocked version once per deploy.
 */
export async function refreshBlocked(app: FastifyInstance, keys: Key[]): Promise<void> {
  if (!keys.length) return;
  const map = await blockMap(app);
  if (!map.basis) return;
  const { repoKeys, licences } = map.basis;
  const watched = keys.filter((k) => watches(map, k.repo_key));
  if (!watched.length) return;
  // after the whole read, so that a page read before these scans changed does not overwrite them
  await map.ready;
  for (const { repo_key, lead_path } of watched) {
    const repo = map.repos.get(repo_key);
    repo?.paths.delete(lead_path);
    repo?.folders.delete(posix.dirname(lead_path));
  }
  apply(app, map, await blockingCandidates(app.db, repoKeys, licences, watched), Date.now());
}

/** A new slot each time an ignore rule expires (or a read failed), so that the map is read again (per database). */
const slots = new WeakMap<Db, number>();

function forget(db: Db) {
  slots.set(db, (slots.get(db) ?? 0) + 1);
}

/** Whether a watch's blocking policy covers a repository. */
function watches(map: BlockMap, repoKey: string): boolean {
  const repoKeys = map.basis?.repoKeys;
  return repoKeys !== undefined && (repoKeys === 'all' || repoKeys.includes(repoKey));
}

function blockMap(app: FastifyInstance): Promise<BlockMap> {
  const slot = slots.get(app.db) ?? 0;
  // read once per configuration generation (a policy, watch or ignore rule changed); changed scans through refreshBlocked
  return cachedConfig(app.db, `scanning.blocked.${slot}`, () => loadBlockMap(app)).then((map) => {
    if (Date.now() < map.validUntil) return map;
    if ((slots.get(app.db) ?? 0) === slot) slots.set(app.db, slot + 1);
    return blockMap(app);
  });
}

/** Why a file may not be downloaded (a watch's policy blocks its version), or undefined. */
export async function downloadBlock(
  app: FastifyInstance,
  item: Pick<ItemRow, 'repo_key' | 'path'>,
): Promise<string | undefined> {
  const map = await blockMap(app);
  if (!watches(map, item.repo_key)) return undefined;
  await map.ready;
  const repo = map.repos.get(item.repo_key);
  if (!repo) return undefined;
  return repo.paths.get(item.path) ?? repo.folders.get(posix.dirname(item.path));
}

/** Whether an active watch applies a licence policy: a change of a version's licences then matters to blocking. */
export function licencesMatter(app: FastifyInstance): Promise<boolean> {
  return cachedConfig(app.db, 'scanning.licencesMatter', async () => {
    const [policies, watches] = await Promise.all([listPolicies(app.db), listWatches(app.db)]);
    const licence = new Set(policies.filter((p) => p.type === 'license').map((p) => p.name));
    return watches.some((w) => w.general_data.active && w.assigned_policies.some((p) => licence.has(p.name)));
  });
}
