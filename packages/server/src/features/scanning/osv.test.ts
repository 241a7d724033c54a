import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES, startTestApp, type TestApp } from '../../test/harness.js';
import { ecosystemFor, ecosystemsOf, releaseApplies, type Ecosystem } from './ecosystems.js';
import { OSV_RECORD, affects, fixedVersions, type OsvAffected, type OsvEvent } from './osv.js';
import { entriesFor, storeAdvisories } from './scanning.store.js';

/** One row of the table: a range of one ecosystem, and the versions it covers and does not. */
interface Row {
  ecosystem: string;
  what: string;
  type?: 'SEMVER' | 'ECOSYSTEM' | 'GIT';
  events: OsvEvent[];
  versions?: string[];
  affected: string[];
  unaffected: string[];
}

const TABLE: Row[] = [
  {
    ecosystem: 'npm',
    what: 'pre-releases sort before their release',
    type: 'SEMVER',
    events: [{ introduced: '0' }, { fixed: '1.2.3' }],
    affected: ['0.0.1', '1.2.2', '1.2.3-beta.1', '1.2.3-rc.10'],
    unaffected: ['1.2.3', '1.2.4', '2.0.0-alpha'],
  },
  {
    ecosystem: 'npm',
    what: 'two ranges in one, opened at a pre-release',
    type: 'SEMVER',
    events: [{ introduced: '1.0.0' }, { fixed: '1.4.0' }, { introduced: '2.0.0-rc.1' }, { fixed: '2.0.1' }],
    affected: ['1.0.0', '1.3.9', '2.0.0-rc.1', '2.0.0-rc.2', '2.0.0'],
    unaffected: ['0.9.9', '1.4.0', '1.9.0', '2.0.0-rc.0', '2.0.1'],
  },
  {
    ecosystem: 'PyPI',
    what: 'epochs, development, pre- and post-releases',
    events: [{ introduced: '1.0.dev0' }, { fixed: '1.0.post1' }],
    affected: ['1.0.dev0', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.0', '1.0+local.1'],
    unaffected: ['0.9', '1.0.post1', '1.0.post2', '1.1', '1!0.1'],
  },
  {
    ecosystem: 'PyPI',
    what: 'an epoch outranks every version without one',
    events: [{ introduced: '0' }, { fixed: '1!1.0' }],
    affected: ['2.0', '99.9', '1!0.9', '1!1.0rc1'],
    unaffected: ['1!1.0', '1!1.1', '2!0.1'],
  },
  {
    ecosystem: 'Maven',
    what: 'qualifiers: alpha, beta, milestone, rc, snapshot, release, sp',
    events: [{ introduced: '1.0-alpha-1' }, { last_affected: '1.0-sp1' }],
    affected: [
      '1.0-alpha-1',
      '1.0-beta-2',
      '1.0-M1',
      '1.0-rc1',
      '1.0-CR2',
      '1.0-SNAPSHOT',
      '1.0',
      '1.0.0',
      '1.0-ga',
      '1.0-final',
      '1.0-sp1',
    ],
    unaffected: ['0.9', '1.0-sp2', '1.0.1', '1.1-alpha-1'],
  },
  {
    ecosystem: 'Maven',
    what: 'numbers by value, not as text',
    events: [{ introduced: '2.9' }, { fixed: '2.10' }],
    affected: ['2.9', '2.9.1', '2.9.10'],
    unaffected: ['2.10', '2.1', '10.0'],
  },
  {
    ecosystem: 'Go',
    what: 'module versions without their v, +incompatible ones included',
    type: 'SEMVER',
    events: [{ introduced: '0' }, { fixed: '2.1.0' }],
    affected: ['v0.1.0', 'v1.9.9', 'v2.0.0+incompatible', 'v2.1.0-pre.1'],
    unaffected: ['v2.1.0', 'v3.0.0+incompatible'],
  },
  {
    ecosystem: 'crates.io',
    what: 'semantic versions with pre-releases',
    events: [{ introduced: '0.3.0-beta.1' }, { fixed: '0.3.2' }],
    affected: ['0.3.0-beta.1', '0.3.0', '0.3.1'],
    unaffected: ['0.2.9', '0.3.0-alpha.9', '0.3.2', '1.0.0'],
  },
  {
    ecosystem: 'RubyGems',
    what: 'letters make a pre-release, a dash is .pre.',
    events: [{ introduced: '5.0.0.beta1' }, { fixed: '5.0.1' }],
    affected: ['5.0.0.beta1', '5.0.0.rc1', '5.0.0-rc2', '5.0.0', '5.0'],
    unaffected: ['5.0.0.alpha', '4.2.11', '5.0.1', '5.0.1.1', '5.1'],
  },
  {
    ecosystem: 'Debian:12',
    what: 'tildes before the release, epochs first, revisions last',
    events: [{ introduced: '0' }, { fixed: '1:2.4.1-1' }],
    affected: ['2.4.1-1', '9.9', '1:2.4.1~rc1-1', '1:2.4.0-3', '1:2.4.1-0.1'],
    unaffected: ['1:2.4.1-1', '1:2.4.1-1+deb12u1', '1:2.4.1+dfsg-1', '2:0.1-1'],
  },
  {
    ecosystem: 'Ubuntu:22.04:LTS',
    what: 'Ubuntu orders as dpkg does',
    events: [{ introduced: '0' }, { fixed: '3.0.2-0ubuntu1.10' }],
    affected: ['3.0.2-0ubuntu1', '3.0.2-0ubuntu1.9', '3.0.2~beta1-0ubuntu1'],
    unaffected: ['3.0.2-0ubuntu1.10', '3.0.2-0ubuntu1.10+esm1', '3.0.3-1'],
  },
  {
    ecosystem: 'Rocky Linux:9',
    what: 'epochs, tildes and carets as rpm orders them',
    events: [{ introduced: '0' }, { fixed: '1:1.1.1k-7.el9' }],
    affected: ['1.1.1k-7.el9', '1:1.1.1k-6.el9', '1:1.1.1-7.el9', '1:1.1.1k~rc1-7.el9', '1:1.1.1j-9.el9'],
    unaffected: ['1:1.1.1k-7.el9', '1:1.1.1k-7.el9_1', '1:1.1.1k^20240101-1.el9', '1:1.1.1l-1.el9', '2:0.1-1'],
  },
  {
    ecosystem: 'npm',
    what: 'a limit bounds the range',
    events: [{ introduced: '1.0.0' }, { limit: '1.5.0' }],
    affected: ['1.0.0', '1.4.99'],
    unaffected: ['0.9.0', '1.5.0', '3.0.0'],
  },
  {
    ecosystem: 'npm',
    what: 'versions listed without a range',
    events: [],
    versions: ['1.0.1', '1.0.3'],
    affected: ['1.0.1', '1.0.3'],
    unaffected: ['1.0.0', '1.0.2'],
  },
  {
    ecosystem: 'Alpine:v3.20',
    what: 'suffixes, letters and revisions, as apk orders them',
    events: [{ introduced: '0' }, { fixed: '1.2.3-r2' }],
    affected: ['1.2.2-r9', '1.2.3_alpha-r5', '1.2.3_rc1-r0', '1.2.3', '1.2.3-r1'],
    unaffected: ['1.2.3-r2', '1.2.3-r10', '1.2.3_p1-r0', '1.2.3_git20240101-r0', '1.2.3a-r0', '1.2.3.1-r0'],
  },
  {
    ecosystem: 'Alpine:v3.20',
    what: 'a number written with a leading zero compares as text',
    events: [{ introduced: '1.02' }, { fixed: '1.1' }],
    affected: ['1.02', '1.03-r1', '1.09'],
    unaffected: ['1.01', '1.010', '1.1', '1.10'],
  },
  {
    ecosystem: 'Go',
    what: 'a git range names commits, not versions',
    type: 'GIT',
    events: [{ introduced: '0' }, { fixed: '6f3e5ba1d9f8c8b4a7a5d2f0c1e3b4a5d6e7f8a9' }],
    affected: [],
    unaffected: ['v1.0.0'],
  },
];

describe('matching versions against OSV ranges, each ecosystem in its own order', () => {
  let t: TestApp;
  let known: Map<string, Ecosystem>;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    known = ecosystemsOf(t.app.formatRegistry);
  });
  afterAll(() => t.close());

  it('knows the ecosystems of the formats that keep packages', () => {
    expect([...known.keys()].sort()).toEqual(
      [
        'Alpine',
        'AlmaLinux',
        'Debian',
        'Go',
        'Mageia',
        'Maven',
        'PyPI',
        'Red Hat',
        'Rocky Linux',
        'RubyGems',
        'SUSE',
        'Ubuntu',
        'crates.io',
        'npm',
        'openEuler',
        'openSUSE',
      ].sort(),
    );
  });

  it.each(TABLE)('$ecosystem: $what', (row) => {
    const ecosystem = ecosystemFor(known, row.ecosystem)!;
    expect(ecosystem, row.ecosystem).toBeDefined();
    const entry: OsvAffected = OSV_RECORD.parse({
      id: 'TEST-1',
      modified: '2026-11-01T00:00:00Z',
      affected: [
        {
          package: { ecosystem: row.ecosystem, name: 'example' },
          ...(row.events.length ? { ranges: [{ type: row.type ?? 'ECOSYSTEM', events: row.events }] } : {}),
          ...(row.versions ? { versions: row.versions } : {}),
        },
      ],
    }).affected![0]!;
    const covered = (v: string) => affects(entry, ecosystem.asAdvised(v), ecosystem);
    expect(
      row.affected.filter((v) => !covered(v)),
      'affected, yet not matched',
    ).toEqual([]);
    expect(
      row.unaffected.filter((v) => covered(v)),
      'not affected, yet matched',
    ).toEqual([]);
  });

  it("applies a distribution's advisories to its release, and to each stream of it, not to another release", () => {
    expect(releaseApplies('Debian:12', 'Debian:12')).toBe(true);
    expect(releaseApplies('Debian:11', 'Debian:12')).toBe(false);
    expect(releaseApplies('Debian', 'Debian:12')).toBe(true);
    expect(releaseApplies('Red Hat:enterprise_linux:9::baseos', 'Red Hat:enterprise_linux:9')).toBe(true);
    expect(releaseApplies('Red Hat:enterprise_linux:9::appstream', 'Red Hat:enterprise_linux:9')).toBe(true);
    expect(releaseApplies('Red Hat:enterprise_linux:8::baseos', 'Red Hat:enterprise_linux:9')).toBe(false);
    expect(releaseApplies('Alpine:v3.20', 'Alpine:v3.2')).toBe(false);
    // Ubuntu Pro's fixes are not those of the release everyone runs
    expect(releaseApplies('Ubuntu:Pro:22.04:LTS', 'Ubuntu:22.04:LTS')).toBe(false);
    expect(releaseApplies('Ubuntu:22.04:LTS', 'Ubuntu:22.04:LTS')).toBe(true);
  });

  it('reads the fixed versions off the ranges, and refuses a record without an id or with an unknown range type', () => {
    const record = OSV_RECORD.parse({
      id: 'GHSA-xxxx',
      modified: '2026-11-01T00:00:00Z',
      affected: [
        {
          package: { ecosystem: 'npm', name: 'left-pad' },
          ranges: [
            {
              type: 'SEMVER',
              events: [{ introduced: '0' }, { fixed: '1.1.2' }, { introduced: '2.0.0' }, { fixed: '2.0.1' }],
            },
          ],
        },
      ],
    });
    expect(fixedVersions(record.affected![0]!)).toEqual(['1.1.2', '2.0.1']);
    expect(OSV_RECORD.safeParse({ modified: '2026-11-01T00:00:00Z' }).success).toBe(false);
    expect(
      OSV_RECORD.safeParse({
        id: 'X',
        modified: '2026-11-01T00:00:00Z',
        affected: [
          { package: { ecosystem: 'npm', name: 'a' }, ranges: [{ type: 'RANGE', events: [{ introduced: '0' }] }] },
        ],
      }).success,
    ).toBe(false);
  });
});

describe.each(ENGINES)('the table of ranges stored and read back on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(() => t.close());

  it('matches every row as the scanner reads it from the database: the same versions affected, the same not', async () => {
    const known = ecosystemsOf(t.app.formatRegistry);
    // a record per row, each for its own package, imported as an upload is
    const records = TABLE.map((row, i) =>
      OSV_RECORD.parse({
        id: `TABLE-${i}`,
        modified: '2026-11-01T00:00:00Z',
        affected: [
          {
            package: { ecosystem: row.ecosystem, name: `example-${i}` },
            ...(row.events.length ? { ranges: [{ type: row.type ?? 'ECOSYSTEM', events: row.events }] } : {}),
            ...(row.versions ? { versions: row.versions } : {}),
          },
        ],
      }),
    );
    await storeAdvisories(
      t.app.db,
      records,
      'table',
      (ecosystem, name) => ecosystemFor(known, ecosystem)?.packageName(name) ?? name,
    );
    for (const [i, row] of TABLE.entries()) {
      const ecosystem = ecosystemFor(known, row.ecosystem)!;
      const [stored] = await entriesFor(t.app.db, ecosystem.name, [ecosystem.packageName(`example-${i}`)]);
      expect(stored?.advisory_id, `${row.ecosystem}: ${row.what}`).toBe(`TABLE-${i}`);
      const entry = JSON.parse(stored!.affected) as OsvAffected;
      const covered = (v: string) => affects(entry, ecosystem.asAdvised(v), ecosystem);
      expect(
        row.affected.filter((v) => !covered(v)),
        `${row.ecosystem}: ${row.what}`,
      ).toEqual([]);
      expect(
        row.unaffected.filter((v) => covered(v)),
        `${row.ecosystem}: ${row.what}`,
      ).toEqual([]);
    }
  });
});
