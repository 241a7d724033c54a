import type { Db } from '../../db/database.js';
import { sql, type Selectable } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { AdvisoriesTable, PackageFindingsTable, PackageScansTable } from '../../db/schema.js';
import type { ArcaEvent, Severity } from '@arca/contracts';
import { recordEventChanges } from '../../core/changes.js';
import { folderOfFile } from '../../core/artifact-path.js';
import { baseEcosystem, type OsvRecord } from './osv.js';
import { cvssOf, ratingOf } from './cvss.js';

export type AdvisoryRow = Selectable<AdvisoriesTable>;
export type PackageScanRow = Selectable<PackageScansTable>;
export type FindingRow = Selectable<PackageFindingsTable>;

const NAMED: Record<string, Severity> = {
  CRITICAL: 'Critical',
  HIGH: 'High',
  MODERATE: 'Medium',
  MEDIUM: 'Medium',
  LOW: 'Low',
};

/**
 * An advisory's severity: the one its database names (GitHub's, OSV's ecosystem-specific one),
 * else the rating of its CVSS base score (the newest CVSS version it gives), else Unknown.
 */
export function severityOf(record: OsvRecord): Severity {
  const given = [
    record.database_specific?.severity,
    ...(record.affected ?? []).flatMap((a) => [a.ecosystem_specific?.severity, a.database_specific?.severity]),
  ];
  for (const value of given) {
    if (typeof value === 'string' && NAMED[value.toUpperCase()]) return NAMED[value.toUpperCase()]!;
  }
  const cvss = cvssOf([...(record.severity ?? []), ...(record.affected ?? []).flatMap((a) => a.severity ?? [])]);
  return cvss ? ratingOf(cvss) : 'Unknown';
}

const time = (iso: string | undefined) => (iso && !Number.isNaN(Date.parse(iso)) ? Date.parse(iso) : null);

/** What an import did: records new, replaced by a newer one, and the same as held. */
export interface ImportCounts {
  added: number;
  updated: number;
  unchanged: number;
}

/**
 * Stores OSV records in one transaction: a record not held is added, one modified since is
 * replaced, the same one again is left alone. `packageName` folds a name as its ecosystem does.
 */
export async function storeAdvisories(
  db: Db,
  records: OsvRecord[],
  source: string,
  packageName: (ecosystem: string, name: string) => string,
): Promise<ImportCounts> {
  const counts: ImportCounts = { added: 0, updated: 0, unchanged: 0 };
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    for (const record of records) {
      const modified = time(record.modified) ?? 0;
      const held = await trx.selectFrom('advisories').select('modified').where('id', '=', record.id).executeTakeFirst();
      if (held && Number(held.modified) >= modified) {
        counts.unchanged++;
        continue;
      }
      if (held) {
        await trx.deleteFrom('advisory_packages').where('advisory_id', '=', record.id).execute();
        await trx.deleteFrom('advisories').where('id', '=', record.id).execute();
        counts.updated++;
      } else counts.added++;
      await trx
        .insertInto('advisories')
        .values({
          id: record.id,
          modified,
          published: time(record.published),
          withdrawn: time(record.withdrawn),
          summary: record.summary ?? '',
          details: record.details ?? '',
          severity: severityOf(record),
          aliases: JSON.stringify(record.aliases ?? []),
          record: JSON.stringify(record),
          source,
          imported_at: now,
        })
        .execute();
      const entries = (record.affected ?? []).map((entry, position) => ({
        advisory_id: record.id,
        position,
        ecosystem: baseEcosystem(entry.package.ecosystem),
        name: packageName(entry.package.ecosystem, entry.package.name),
        affected: JSON.stringify(entry),
      }));
      for (let i = 0; i < entries.length; i += 200)
        await trx
          .insertInto('advisory_packages')
          .values(entries.slice(i, i + 200))
          .execute();
    }
  });
  return counts;
}

/** When advisories last changed (0: none held). */
export async function advisoriesChangedAt(db: Db): Promise<number> {
  const row = await db
    .selectFrom('advisories')
    .select((eb) => eb.fn.max('imported_at').as('at'))
    .executeTakeFirst();
  return Number(row?.at ?? 0);
}

/** The affected entries naming any of these packages of an ecosystem, with their advisories' severity. */
export async function entriesFor(
  db: Db,
  ecosystem: string,
  names: string[],
): Promise<
  {
    advisory_id: string;
    name: string;
    affected: string;
    severity: string;
    withdrawn: number | null;
    summary: string;
    aliases: string;
  }[]
> {
  if (!names.length) return [];
  return db
    .selectFrom('advisory_packages as p')
    .innerJoin('advisories as a', 'a.id', 'p.advisory_id')
    .select(['p.advisory_id', 'p.name', 'p.affected', 'a.severity', 'a.withdrawn', 'a.summary', 'a.aliases'])
    .where('p.ecosystem', '=', ecosystem)
    .where('p.name', 'in', names)
    .execute();
}

/** Lead files grouped by repository, in slices small enough for one statement each. */
function slicesOf(keys: { repo_key: string; lead_path: string }[]): { repoKey: string; paths: string[] }[] {
  const byRepo = new Map<string, string[]>();
  for (const key of keys) {
    const paths = byRepo.get(key.repo_key);
    if (paths) paths.push(key.lead_path);
    else byRepo.set(key.repo_key, [key.lead_path]);
  }
  return [...byRepo].flatMap(([repoKey, paths]) =>
    Array.from({ length: Math.ceil(paths.length / 500) }, (_, i) => ({
      repoKey,
      paths: paths.slice(i * 500, i * 500 + 500),
    })),
  );
}

/** The scans of some lead files. */
export async function scansOf(db: Db, keys: { repo_key: string; lead_path: string }[]): Promise<PackageScanRow[]> {
  const found: PackageScanRow[] = [];
  for (const { repoKey, paths } of slicesOf(keys)) {
    found.push(
      ...(await db
        .selectFrom('package_scans')
        .selectAll()
        .where('repo_key', '=', repoKey)
        .where('lead_path', 'in', paths)
        .execute()),
    );
  }
  return found;
}

/**
 * Records scans and their findings in one transaction, replacing what each lead file had (its scan
 * row locked: matchings of one version that commit at once record one after the other).
 * Answers the versions scanned for the first time or whose findings changed (or, with
 * `licencesMatter`, their licences): what the policies block of them may have changed. A scan
 * matched against older advisories than the one held is not recorded.
 */
export async function recordScans(
  db: Db,
  scans: { scan: PackageScanRow; findings: Omit<FindingRow, 'repo_key' | 'lead_path'>[] }[],
  options: {
    licencesMatter?: boolean;
    /**
     * The events of what a scan newly found (advisories it did not have, licences it did not
     * declare or a first scan), written in the same transaction: the notifications of violations.
     */
    newlyFound?: (
      trx: Db,
      result: { scan: PackageScanRow; findings: Omit<FindingRow, 'repo_key' | 'lead_path'>[] },
      added: Set<string>,
      licencesNew: boolean,
    ) => Promise<ArcaEvent[]>;
  } = {},
): Promise<{ repo_key: string; lead_path: string }[]> {
  if (!scans.length) return [];
  return db.transaction().execute(async (trx) => {
    const changedKeys: { repo_key: string; lead_path: string }[] = [];
    const events: ArcaEvent[] = [];
    for (const result of scans) {
      const { scan, findings } = result;
      // the version's scan is taken (locked until commit): two matchings of one version record one after the other
      let held = await heldScan(trx, scan);
      let fresh = false;
      if (!held) {
        fresh = !!(await trx
          .insertInto('package_scans')
          .values(scan)
          .onConflict((oc) => oc.columns(['repo_key', 'lead_path']).doNothing())
          .returning('lead_path')
          .executeTakeFirst());
        // another matching inserted it first, and committed: what it recorded is the one held
        if (!fresh) held = await heldScan(trx, scan);
      }
      // two matchings of one version at once (a deploy's begun before an import, the sweep after
      // it): the one against the newer advisories stands, whichever commits last
      if (held && Number(held.advisories_at) > Number(scan.advisories_at)) continue;
      // a first scan is a change: what a watch blocks may now include the version
      let changed = !held;
      const before = await trx
        .deleteFrom('package_findings')
        .where('repo_key', '=', scan.repo_key)
        .where('lead_path', '=', scan.lead_path)
        .returning('advisory_id')
        .execute();
      const ids = new Set(findings.map((f) => f.advisory_id));
      if (before.length !== ids.size || before.some((f) => !ids.has(f.advisory_id))) changed = true;
      if (options.licencesMatter && held?.licenses !== scan.licenses) changed = true;
      const { repo_key: _repo, lead_path: _path, ...changes } = scan;
      // a scan begun before a sweep and committed after it keeps the sweep's mark, else the
      // sweep's end would forget the version as gone from the catalogue
      const later = isPostgres(trx) ? sql.raw('GREATEST') : sql.raw('MAX');
      if (!fresh)
        await trx
          .insertInto('package_scans')
          .values(scan)
          .onConflict((oc) =>
            oc.columns(['repo_key', 'lead_path']).doUpdateSet({
              ...changes,
              swept_at: sql<number>`${later}(package_scans.swept_at, excluded.swept_at)`,
            }),
          )
          .execute();
      const inserted = findings.length
        ? await trx
            .insertInto('package_findings')
            .values(findings.map((f) => ({ ...f, repo_key: scan.repo_key, lead_path: scan.lead_path })))
            .onConflict((oc) => oc.doNothing())
            .returning('advisory_id')
            .execute()
        : [];
      if (options.newlyFound) {
        // new: inserted here and not held before (a matching of the same version that committed
        // first recorded, and told of, what it found); licences, against the scan it left
        const had = new Set(before.map((f) => f.advisory_id));
        const added = new Set(inserted.map((f) => f.advisory_id).filter((id) => !had.has(id)));
        const licencesNew = held?.licenses !== scan.licenses;
        if (added.size || licencesNew) events.push(...(await options.newlyFound(trx, result, added, licencesNew)));
      }
      if (changed) changedKeys.push({ repo_key: scan.repo_key, lead_path: scan.lead_path });
    }
    await recordEventChanges(trx, 'xray', events);
    return changedKeys;
  });
}

/** A version's scan as held, its row locked until the transaction ends (PostgreSQL; SQLite's writes take turns). */
function heldScan(trx: Db, key: { repo_key: string; lead_path: string }) {
  const query = trx
    .selectFrom('package_scans')
    .select(['licenses', 'advisories_at'])
    .where('repo_key', '=', key.repo_key)
    .where('lead_path', '=', key.lead_path);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** The summaries and aliases of some advisories, by id. */
export async function advisoryFacts(
  db: Db,
  ids: string[],
): Promise<Map<string, { summary: string; aliases: string[] }>> {
  const facts = new Map<string, { summary: string; aliases: string[] }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom('advisories')
      .select(['id', 'summary', 'aliases'])
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) facts.set(r.id, { summary: r.summary, aliases: JSON.parse(r.aliases) as string[] });
  }
  return facts;
}

/** The versions scanned since a time (what another node's scans changed, for what a node blocks). */
export function scannedSince(db: Db, since: number): Promise<{ repo_key: string; lead_path: string }[]> {
  return db.selectFrom('package_scans').select(['repo_key', 'lead_path']).where('scanned_at', '>=', since).execute();
}

/** Marks scans as seen by the sweep under way (never back: a later sweep's mark stands). */
export async function markSwept(db: Db, keys: { repo_key: string; lead_path: string }[], at: number): Promise<void> {
  for (const { repoKey, paths } of slicesOf(keys)) {
    await db
      .updateTable('package_scans')
      .set({ swept_at: at })
      .where('repo_key', '=', repoKey)
      .where('lead_path', 'in', paths)
      .where('swept_at', '<', at)
      .execute();
  }
}

/** Forgets the scans (and findings) of versions a whole sweep no longer found in the catalogue; answers which. */
export async function forgetUnswept(db: Db, before: number): Promise<{ repo_key: string; lead_path: string }[]> {
  return db.transaction().execute(async (trx) => {
    const gone = await trx
      .selectFrom('package_scans')
      .select(['repo_key', 'lead_path'])
      .where('swept_at', '<', before)
      .execute();
    for (const key of gone) {
      await trx
        .deleteFrom('package_findings')
        .where('repo_key', '=', key.repo_key)
        .where('lead_path', '=', key.lead_path)
        .execute();
    }
    await trx.deleteFrom('package_scans').where('swept_at', '<', before).execute();
    return gone;
  });
}

/** A lead file's scan with its findings and their advisories. */
export async function scanWithFindings(
  db: Db,
  repoKey: string,
  leadPath: string,
): Promise<{ scan: PackageScanRow; findings: (FindingRow & { advisory: AdvisoryRow })[] } | undefined> {
  const scan = await db
    .selectFrom('package_scans')
    .selectAll()
    .where('repo_key', '=', repoKey)
    .where('lead_path', '=', leadPath)
    .executeTakeFirst();
  if (!scan) return undefined;
  const rows = await db
    .selectFrom('package_findings as f')
    .innerJoin('advisories as a', 'a.id', 'f.advisory_id')
    .selectAll('f')
    .select([
      'a.id',
      'a.modified',
      'a.published',
      'a.withdrawn',
      'a.summary',
      'a.details',
      'a.severity as advisory_severity',
      'a.aliases',
      'a.record',
      'a.source',
      'a.imported_at',
    ])
    .where('f.repo_key', '=', repoKey)
    .where('f.lead_path', '=', leadPath)
    .execute();
  return {
    scan,
    findings: rows.map((r) => ({
      repo_key: r.repo_key,
      lead_path: r.lead_path,
      advisory_id: r.advisory_id,
      severity: r.severity,
      fixed_versions: r.fixed_versions,
      component: r.component,
      advisory: {
        id: r.id,
        modified: r.modified,
        published: r.published,
        withdrawn: r.withdrawn,
        summary: r.summary,
        details: r.details,
        severity: r.advisory_severity,
        aliases: r.aliases,
        record: r.record,
        source: r.source,
        imported_at: r.imported_at,
      },
    })),
  };
}

type BlockingCandidate = Awaited<ReturnType<typeof blockingCandidatesOf>>[number];
type ScanKey = { repo_key: string; lead_path: string };

/**
 * The scans of some repositories ('all': every one) with their findings and the advisories'
 * summaries, a row per finding: of the versions with findings only, or with `all` of them too
 * (once, without a finding) for the licence rules. `only`: of these versions.
 */
export async function blockingCandidates(
  db: Db,
  repoKeys: string[] | 'all',
  all: boolean,
  only: ScanKey[],
): Promise<BlockingCandidate[]> {
  if (repoKeys !== 'all' && !repoKeys.length) return [];
  const rows = [];
  for (const { repoKey, paths } of slicesOf(only))
    rows.push(...(await blockingCandidatesOf(db, [repoKey], all, { paths })));
  return rows;
}

/**
 * The same rows for every version of those repositories, in pages of about `size` versions in
 * the order of their keys (a range of the primary key each), so that a caller can give other
 * work its turn between pages.
 */
export async function* blockingCandidatePages(
  db: Db,
  repoKeys: string[] | 'all',
  all: boolean,
  size: number,
): AsyncGenerator<BlockingCandidate[]> {
  if (repoKeys !== 'all' && !repoKeys.length) return;
  // with `all`, every scan; otherwise the versions with a finding
  const table = all ? 'package_scans' : 'package_findings';
  let after: ScanKey | undefined;
  for (;;) {
    let bound = db.selectFrom(table).select(['repo_key', 'lead_path']).distinct();
    if (repoKeys !== 'all') bound = bound.where('repo_key', 'in', repoKeys);
    if (after)
      bound = bound.where(({ eb, refTuple, tuple }) =>
        eb(refTuple('repo_key', 'lead_path'), '>', tuple(after!.repo_key, after!.lead_path)),
      );
    const last = await bound
      .orderBy('repo_key')
      .orderBy('lead_path')
      .limit(1)
      .offset(size - 1)
      .executeTakeFirst();
    const rows = await blockingCandidatesOf(db, repoKeys, all, { after, upTo: last });
    if (rows.length) yield rows;
    if (!last) return;
    after = { repo_key: last.repo_key, lead_path: last.lead_path };
  }
}

function blockingCandidatesOf(
  db: Db,
  repoKeys: string[] | 'all',
  all: boolean,
  range: { paths?: string[]; after?: ScanKey; upTo?: ScanKey },
) {
  let query = db
    .selectFrom('package_scans as s')
    .leftJoin('package_findings as f', (join) =>
      join.onRef('f.repo_key', '=', 's.repo_key').onRef('f.lead_path', '=', 's.lead_path'),
    )
    .leftJoin('advisories as a', 'a.id', 'f.advisory_id')
    .select([
      's.repo_key',
      's.lead_path',
      's.package_type',
      's.name',
      's.version',
      's.licenses',
      'f.advisory_id',
      'f.severity',
      'f.fixed_versions',
      'f.component',
      'a.summary',
      'a.aliases',
    ]);
  if (repoKeys !== 'all') query = query.where('s.repo_key', 'in', repoKeys);
  if (range.paths) query = query.where('s.lead_path', 'in', range.paths);
  const { after, upTo } = range;
  if (after)
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('s.repo_key', 's.lead_path'), '>', tuple(after.repo_key, after.lead_path)),
    );
  if (upTo)
    query = query.where(({ eb, refTuple, tuple }) =>
      eb(refTuple('s.repo_key', 's.lead_path'), '<=', tuple(upTo.repo_key, upTo.lead_path)),
    );
  if (!all) query = query.where('f.advisory_id', 'is not', null);
  return query.execute();
}

/** The scan of the version a stored file belongs to: its lead file's, or (`inFolder`) that of the lead in its folder. */
export async function scanOfFile(
  db: Db,
  repoKey: string,
  path: string,
  inFolder: boolean,
): Promise<PackageScanRow | undefined> {
  const exact = await db
    .selectFrom('package_scans')
    .selectAll()
    .where('repo_key', '=', repoKey)
    .where('lead_path', '=', path)
    .executeTakeFirst();
  const folder = folderOfFile(path);
  if (exact || !inFolder || !folder) return exact;
  const rows = await db
    .selectFrom('package_scans')
    .selectAll()
    .where('repo_key', '=', repoKey)
    .where('lead_path', '>=', folder.from)
    .where('lead_path', '<', folder.below)
    .execute();
  return rows.find((r) => folder.holds(r.lead_path));
}

/** A stored finding as the policies and the SBOM read it: its advisory's aliases and the fixes parsed. */
export function findingFacts(f: FindingRow & { advisory: AdvisoryRow }) {
  return {
    advisoryId: f.advisory_id,
    aliases: JSON.parse(f.advisory.aliases) as string[],
    severity: f.severity,
    summary: f.advisory.summary,
    fixedVersions: JSON.parse(f.fixed_versions) as string[],
    component: f.component,
  };
}

/**
 * What the scans of some repositories found: versions by scan status, findings by severity, and
 * how many versions have one — for the whole repositories counted in the database, for those a
 * caller may read only in part row by row through `visible`.
 */
export async function scanStats(
  db: Db,
  whole: string[],
  partial: { repoKey: string; visible: (leadPath: string) => boolean }[],
) {
  const statuses: Record<string, number> = {};
  const severities: Record<string, number> = {};
  let affected = 0;
  const add = (into: Record<string, number>, key: string, n: number) => (into[key] = (into[key] ?? 0) + n);
  if (whole.length) {
    const [byStatus, bySeverity, versions] = await Promise.all([
      db
        .selectFrom('package_scans')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('repo_key', 'in', whole)
        .groupBy('status')
        .execute(),
      db
        .selectFrom('package_findings')
        .select(['severity', (eb) => eb.fn.countAll<number>().as('n')])
        .where('repo_key', 'in', whole)
        .groupBy('severity')
        .execute(),
      db
        .selectFrom((eb) =>
          eb
            .selectFrom('package_findings')
            .select(['repo_key', 'lead_path'])
            .distinct()
            .where('repo_key', 'in', whole)
            .as('v'),
        )
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    for (const r of byStatus) add(statuses, r.status, Number(r.n));
    for (const r of bySeverity) add(severities, r.severity, Number(r.n));
    affected += Number(versions.n);
  }
  for (const { repoKey, visible } of partial) {
    const scans = await db
      .selectFrom('package_scans')
      .select(['lead_path', 'status'])
      .where('repo_key', '=', repoKey)
      .execute();
    for (const s of scans) if (visible(s.lead_path)) add(statuses, s.status, 1);
    const findings = await db
      .selectFrom('package_findings')
      .select(['lead_path', 'severity'])
      .where('repo_key', '=', repoKey)
      .execute();
    const seen = new Set<string>();
    for (const f of findings.filter((f) => visible(f.lead_path))) {
      add(severities, f.severity, 1);
      seen.add(f.lead_path);
    }
    affected += seen.size;
  }
  return { statuses, severities, affected };
}

/**
 * The findings of an advisory (by its id or an alias, a CVE id) or of a package (by its name),
 * with the scanned versions they are in, most severe first; at most `limit`.
 */
export async function findingsMatching(db: Db, query: string, limit: number) {
  const id = query.trim();
  return db
    .selectFrom('package_findings as f')
    .innerJoin('package_scans as s', (join) =>
      join.onRef('s.repo_key', '=', 'f.repo_key').onRef('s.lead_path', '=', 'f.lead_path'),
    )
    .innerJoin('advisories as a', 'a.id', 'f.advisory_id')
    .select([
      'f.repo_key',
      'f.lead_path',
      'f.advisory_id',
      'f.severity',
      'f.fixed_versions',
      'f.component',
      's.package_type',
      's.name',
      's.version',
      's.scanned_at',
      'a.summary',
      'a.aliases',
    ])
    .where((eb) =>
      eb.or([
        eb(eb.fn('upper', ['f.advisory_id']), '=', id.toUpperCase()),
        // aliases are a JSON array of strings: the id with its quotes is one of them
        eb(eb.fn('upper', ['a.aliases']), 'like', `%${JSON.stringify(id.toUpperCase()).replace(/[%_]/g, '')}%`),
        eb('s.name', '=', id),
      ]),
    )
    .orderBy('f.repo_key')
    .orderBy('f.lead_path')
    .limit(limit)
    .execute();
}
