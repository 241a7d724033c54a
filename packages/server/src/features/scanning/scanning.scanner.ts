import type { FastifyInstance } from 'fastify';
import { systemContent, type HeldAdvisory, type RepoContent } from '../artifacts/index.js';
import type { InstalledPackages } from '../../formats/format.js';
import { catalogueVersions, type CatalogueVersion } from '../packages/index.js';
import { licencesMatter, refreshBlocked } from './scanning.blocking.js';
import { violationNotifier } from './scanning.notify.js';
import {
  ecosystemFor,
  ecosystemOfType,
  ecosystemsOf,
  installedDatabases,
  releaseApplies,
  type Ecosystem,
} from './ecosystems.js';
import { spdxLicenses } from './licenses.js';
import { affects, fixedVersions, type OsvAffected } from './osv.js';
import {
  advisoriesChangedAt,
  entriesFor,
  forgetUnswept,
  markSwept,
  recordScans,
  scansOf,
  type FindingRow,
  type PackageScanRow,
} from './scanning.store.js';

/** Versions matched per step of a sweep (one transaction records them). */
const PAGE = 1000;
/** Names asked for in one statement. */
const NAMES_PER_QUERY = 500;

type Finding = Omit<FindingRow, 'repo_key' | 'lead_path'>;
type Result = { scan: PackageScanRow; findings: Finding[] };

/** Appends to the list a map holds under `key` (made when missing). */
function addTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Matches catalogued package versions against the advisories held: each version in its
 * ecosystem's order of versions, by the ranges and lists of the advisories naming its package.
 * A sweep walks the whole catalogue and matches again what changed since its last scan (another
 * content at the same place, or newer advisories), and forgets the scans of versions gone.
 */
export class Scanner {
  private readonly known: Map<string, Ecosystem>;
  /** The door as the server uses it (an image's layers are read through it), made once the door is. */
  private door: RepoContent | undefined;

  constructor(private readonly app: FastifyInstance) {
    this.known = ecosystemsOf(app.formatRegistry);
  }

  private get content(): RepoContent {
    return (this.door ??= systemContent(this.app));
  }

  /** Matches versions now and records their scans (seen by a sweep at `sweptAt`). */
  async scan(versions: CatalogueVersion[], sweptAt = Date.now()): Promise<void> {
    const advisoriesAt = await advisoriesChangedAt(this.app.db);
    const now = Date.now();
    const results: Result[] = [];
    const scan = (v: CatalogueVersion, status: string, message = '', installed = ''): PackageScanRow => ({
      repo_key: v.repo_key,
      lead_path: v.lead_path,
      package_type: v.package_type,
      name: v.name,
      version: v.version,
      sha256: v.sha256,
      licenses: JSON.stringify(spdxLicenses(JSON.parse(v.licenses || '[]') as string[])),
      status,
      message,
      scanned_at: now,
      advisories_at: advisoriesAt,
      swept_at: sweptAt,
      installed,
    });
    const byEcosystem = new Map<Ecosystem, CatalogueVersion[]>();
    const images: CatalogueVersion[] = [];
    for (const v of versions) {
      const ecosystem = ecosystemOfType(this.app.formatRegistry, this.known, v.package_type);
      if (this.app.formatRegistry.for(v.package_type)?.installed) images.push(v);
      else if (!ecosystem || ecosystem.perRelease) {
        results.push({
          scan: scan(v, 'not supported', `${v.package_type} packages are not matched against advisories`),
          findings: [],
        });
      } else if (!ecosystem.valid(ecosystem.asAdvised(v.version))) {
        results.push({
          scan: scan(v, 'scan failed', `The version '${v.version}' is not one ${ecosystem.name} can order.`),
          findings: [],
        });
      } else addTo(byEcosystem, ecosystem, v);
    }
    for (const [ecosystem, list] of byEcosystem) {
      const wanted = list.map((v) => ({
        name: ecosystem.packageName(v.name),
        version: ecosystem.asAdvised(v.version),
      }));
      const found = await this.match(ecosystem, wanted);
      list.forEach((v, i) => results.push({ scan: scan(v, 'scanned'), findings: found[i]! }));
    }
    // what an image installs is read off its layers once per content; matching it again reuses it
    // (not what could not be read then: a later reader may read it)
    const readBefore = new Map(
      (await scansOf(this.app.db, images))
        .filter((s) => s.installed && !(JSON.parse(s.installed) as InstalledPackages).unsupported)
        .map((s) => [`${s.repo_key}/${s.lead_path}`, s]),
    );
    for (const v of images) {
      const format = this.app.formatRegistry.for(v.package_type)!;
      try {
        const before = readBefore.get(`${v.repo_key}/${v.lead_path}`);
        const file = before?.sha256 === v.sha256 ? undefined : await this.content.stored(v.repo_key, v.lead_path);
        const installed =
          before?.sha256 === v.sha256
            ? (JSON.parse(before.installed) as InstalledPackages)
            : file && (await format.installed!(file, this.content, installedDatabases(this.app.formatRegistry)));
        const ecosystem = installed?.ecosystem ? ecosystemFor(this.known, installed.ecosystem) : undefined;
        const distribution = installed && !installed.unsupported && ecosystem ? ecosystem : undefined;
        const languages = (installed?.languages ?? []).flatMap((group) => {
          const known = ecosystemFor(this.known, group.ecosystem);
          return known ? [{ ecosystem: known, packages: group.packages }] : [];
        });
        if (!installed || (!distribution && !languages.length)) {
          const why =
            installed?.unsupported ?? `${installed?.ecosystem || 'Its'} packages are not matched against advisories.`;
          results.push({
            scan: scan(v, 'not supported', why, installed ? JSON.stringify(installed) : ''),
            findings: [],
          });
          continue;
        }
        // an advisory once per image, naming the first package it affects
        const findings = new Map<string, Finding>();
        if (distribution) {
          const packages = installed.packages.filter((p) => distribution.valid(p.version));
          const found = await this.match(
            distribution,
            packages.map((p) => ({
              name: distribution.packageName(p.name),
              version: p.version,
              release: installed.ecosystem,
            })),
          );
          packages.forEach((p, i) => {
            for (const f of found[i]!)
              if (!findings.has(f.advisory_id))
                findings.set(f.advisory_id, { ...f, component: `${p.binary} ${p.version}` });
          });
        }
        // the application's own packages, in their ecosystems (`npm://name version`)
        for (const { ecosystem: language, packages: listed } of languages) {
          const packages = listed.filter((p) => language.valid(language.asAdvised(p.version)));
          const found = await this.match(
            language,
            packages.map((p) => ({ name: language.packageName(p.name), version: language.asAdvised(p.version) })),
          );
          packages.forEach((p, i) => {
            for (const f of found[i]!)
              if (!findings.has(f.advisory_id))
                findings.set(f.advisory_id, {
                  ...f,
                  component: `${language.name.toLowerCase()}://${p.name} ${p.version}`,
                });
          });
        }
        // what was not matched (the distribution's packages of an RPM-based image) is said beside the scan
        const message = distribution ? '' : (installed.unsupported ?? '');
        results.push({
          scan: scan(v, 'scanned', message, JSON.stringify(installed)),
          findings: [...findings.values()],
        });
      } catch (error) {
        results.push({
          scan: scan(v, 'scan failed', `The image could not be read: ${(error as Error).message}`),
          findings: [],
        });
      }
    }
    const newlyFound = await violationNotifier(this.app);
    const changed = await recordScans(this.app.db, results, {
      licencesMatter: await licencesMatter(this.app),
      ...(newlyFound ? { newlyFound } : {}),
    });
    await refreshBlocked(this.app, changed);
  }

  /**
   * The advisories affecting each wanted package version of an ecosystem (names and versions as
   * its advisories write them; `release`: only entries of that release, or of none, apply).
   */
  private async match(
    ecosystem: Ecosystem,
    wanted: { name: string; version: string; release?: string }[],
  ): Promise<Finding[][]> {
    const names = [...new Set(wanted.map((w) => w.name))];
    const entries = new Map<string, { advisory_id: string; affected: OsvAffected; severity: string }[]>();
    for (let i = 0; i < names.length; i += NAMES_PER_QUERY) {
      for (const row of await entriesFor(this.app.db, ecosystem.name, names.slice(i, i + NAMES_PER_QUERY))) {
        if (row.withdrawn) continue;
        addTo(entries, row.name, {
          advisory_id: row.advisory_id,
          affected: JSON.parse(row.affected) as OsvAffected,
          severity: row.severity,
        });
      }
    }
    return wanted.map((w) => {
      const found = new Map<string, { severity: string; fixed: Set<string> }>();
      for (const entry of entries.get(w.name) ?? []) {
        const named = entry.affected.package.ecosystem;
        if (w.release && !releaseApplies(named, w.release)) continue;
        if (!affects(entry.affected, w.version, ecosystem)) continue;
        const finding = found.get(entry.advisory_id) ?? { severity: entry.severity, fixed: new Set<string>() };
        for (const fixed of fixedVersions(entry.affected)) finding.fixed.add(fixed);
        found.set(entry.advisory_id, finding);
      }
      return [...found].map(([advisory_id, f]) => ({
        advisory_id,
        severity: f.severity,
        fixed_versions: JSON.stringify([...f.fixed]),
        component: '',
      }));
    });
  }

  /**
   * The advisories held that affect any of the given versions of an ecosystem's packages (a
   * client's audit asks with the versions it installed), each with the versions it names.
   */
  async held(ecosystemName: string, packages: Record<string, string[]>): Promise<HeldAdvisory[]> {
    const ecosystem = this.known.get(ecosystemName);
    if (!ecosystem) return [];
    const byName = new Map<string, string[]>();
    for (const name of Object.keys(packages)) addTo(byName, ecosystem.packageName(name), name);
    const folded = [...byName.keys()];
    const held: HeldAdvisory[] = [];
    for (let i = 0; i < folded.length; i += NAMES_PER_QUERY) {
      for (const row of await entriesFor(this.app.db, ecosystem.name, folded.slice(i, i + NAMES_PER_QUERY))) {
        if (row.withdrawn) continue;
        const affected = JSON.parse(row.affected) as OsvAffected;
        for (const name of byName.get(row.name) ?? []) {
          const versions = packages[name] ?? [];
          if (!versions.some((v) => ecosystem.valid(v) && affects(affected, v, ecosystem))) continue;
          const aliases = JSON.parse(row.aliases) as string[];
          held.push({
            name,
            id: row.advisory_id,
            cves: [row.advisory_id, ...aliases].filter((id) => id.startsWith('CVE-')),
            summary: row.summary,
            severity: row.severity,
            url: `https://osv.dev/vulnerability/${encodeURIComponent(row.advisory_id)}`,
            ranges: (affected.ranges ?? [])
              .filter((r) => r.type !== 'GIT')
              .map((r) => ({ type: r.type, events: r.events as Record<string, string>[] })),
            versions: affected.versions ?? [],
          });
        }
      }
    }
    return held;
  }

  /**
   * Walks the catalogue once: matches the versions never scanned, scanned with another content or
   * against older advisories, and forgets the scans of versions no longer there. Advisories that
   * arrive meanwhile make it walk again. Answers how many versions it matched.
   */
  async sweep(): Promise<number> {
    let matched = 0;
    for (;;) {
      const started = Date.now();
      const advisoriesAt = await advisoriesChangedAt(this.app.db);
      for (let after = ''; ;) {
        const page = await catalogueVersions(this.app.db, after, PAGE);
        if (!page.length) break;
        after = page.at(-1)!.id;
        const held = new Map((await scansOf(this.app.db, page)).map((s) => [`${s.repo_key}/${s.lead_path}`, s]));
        const due = page.filter((v) => {
          const s = held.get(`${v.repo_key}/${v.lead_path}`);
          return (
            !s ||
            s.sha256 !== v.sha256 ||
            s.name !== v.name ||
            s.version !== v.version ||
            Number(s.advisories_at) < advisoriesAt
          );
        });
        await this.scan(due, started);
        await markSwept(
          this.app.db,
          page.filter((v) => !due.includes(v)),
          started,
        );
        matched += due.length;
      }
      await refreshBlocked(this.app, await forgetUnswept(this.app.db, started));
      if ((await advisoriesChangedAt(this.app.db)) === advisoriesAt) return matched;
    }
  }
}
