import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ecosystemsOf, type Ecosystem } from './ecosystems.js';

/**
 * Each ecosystem's order of versions, checked against the ecosystem's own tool on every pair of a
 * list of versions chosen for their edge cases: dpkg, rpm, RubyGems, Python's `packaging` and
 * Maven's ComparableVersion. (npm, Go and crates.io order by SemVer, which the semver package is.)
 */

/** Every pair of a list, each once. */
const pairsOf = (versions: string[]) =>
  versions.flatMap((a, i) => versions.slice(i + 1).map((b): [string, string] => [a, b]));

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

const lines = (text: string) => text.trim().split('\n').map(Number);

const MAVEN_ARTIFACT = ['/usr/share/maven/lib', '/usr/share/java']
  .flatMap((dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : []))
  .find((f) => /maven-artifact[^/]*\.jar$/.test(f));

const ORACLES: {
  ecosystem: string;
  tool: string;
  versions: string[];
  compare(pairs: [string, string][]): number[];
}[] = [
  {
    ecosystem: 'Debian',
    tool: 'dpkg',
    versions: [
      '0.9-1',
      '1.0',
      '1.0-1',
      '1.0-2',
      '1.0~rc1',
      '1.0~rc1-1',
      '1.0~~',
      '1.0+dfsg-1',
      '1.0-1ubuntu1',
      '1.0-1+deb12u1',
      '1:0.9',
      '2:0.1',
      '1.0a',
      '1.0.1',
      '1.00',
      '1.0-1.1',
    ],
    compare: (pairs) =>
      pairs.map(([a, b]) =>
        spawnSync('dpkg', ['--compare-versions', a, 'lt', b]).status === 0
          ? -1
          : spawnSync('dpkg', ['--compare-versions', a, 'eq', b]).status === 0
            ? 0
            : 1,
      ),
  },
  {
    ecosystem: 'Rocky Linux',
    tool: 'rpm',
    versions: [
      '1.0',
      '1.0-1',
      '1.0-2',
      '1.0-1.el9',
      '1.0-1.el9_1',
      '1.0~rc1',
      '1.0^git1',
      '1.0.1',
      '1:0.9',
      '1.0a',
      '1.0.a',
      '1.a',
      '2',
      '1.010',
      '1.10',
      '1.01',
      '1.0~rc1^post',
    ],
    compare: (pairs) =>
      lines(
        execFileSync('rpm', [
          '--eval',
          [
            '%{lua:',
            'local function c(a, b) local x, y = rpm.ver(a), rpm.ver(b); return x < y and -1 or (x == y and 0 or 1) end',
            `print(table.concat({ ${pairs.map(([a, b]) => `c(${JSON.stringify(a)}, ${JSON.stringify(b)})`).join(', ')} }, "\\n"))}`,
          ].join(' '),
        ]).toString(),
      ),
  },
  {
    ecosystem: 'RubyGems',
    tool: 'ruby',
    versions: [
      '0.9.9',
      '1.0',
      '1.0.0',
      '1.0.a',
      '1.0.0.pre',
      '1.0-rc1',
      '1.0.b1',
      '1.0.1',
      '1.a',
      '1.0.0.1',
      '2',
      '1.0.rc.1',
      '1.0.0.rc2',
      '10.0',
      '1.0.0.a.0',
    ],
    compare: (pairs) =>
      lines(
        execFileSync('ruby', [
          '-e',
          'ARGV.each_slice(2) { |a, b| puts(Gem::Version.new(a) <=> Gem::Version.new(b)) }',
          ...pairs.flat(),
        ]).toString(),
      ),
  },
  {
    ecosystem: 'PyPI',
    tool: 'python3',
    versions: [
      '0.9',
      '1.0',
      '1.0.0',
      '1.0a1',
      '1.0b2',
      '1.0rc1',
      '1.0c2',
      '1.0.dev1',
      '1.0a1.dev1',
      '1.0.post1',
      '1.0.post1.dev1',
      '1!0.1',
      '1.0+local',
      '1.0+local.2',
      '1.0+local.10',
      '1.1',
    ],
    compare: (pairs) =>
      lines(
        execFileSync('python3', [
          '-c',
          [
            'import sys',
            'try:\n  from packaging.version import Version\nexcept ImportError:\n  from pip._vendor.packaging.version import Version',
            'args = sys.argv[1:]',
            'for a, b in zip(args[0::2], args[1::2]):\n  x, y = Version(a), Version(b)\n  print(-1 if x < y else 0 if x == y else 1)',
          ].join('\n'),
          ...pairs.flat(),
        ]).toString(),
      ),
  },
  {
    ecosystem: 'Maven',
    tool: 'ComparableVersion',
    versions: [
      '1',
      '1.0',
      '1.0.0',
      '1-ga',
      '1-final',
      '1.0-alpha-1',
      '1.0-alpha1',
      '1.0-beta',
      '1.0-M2',
      '1.0-rc1',
      '1.0-cr1',
      '1.0-SNAPSHOT',
      '1.0-sp1',
      '1.0.1',
      '1-1',
      '1.1',
      '1.0-foo',
      '1.0-xyz',
      '2.0',
      '1.0-20231201.123456-1',
    ],
    compare(pairs) {
      // it compares each argument with the next: the pairs are laid end to end, each answer read off its line
      const out = execFileSync('java', [
        '-cp',
        MAVEN_ARTIFACT!,
        'org.apache.maven.artifact.versioning.ComparableVersion',
        ...pairs.flat(),
      ]).toString();
      const verdicts = [...out.matchAll(/^ {3}(\S+) (<|==|>) (\S+)$/gm)].map((m) =>
        m[2] === '<' ? -1 : m[2] === '==' ? 0 : 1,
      );
      // the answers of the 1st, 3rd, 5th … comparison are those of the pairs
      return verdicts.filter((_, i) => i % 2 === 0);
    },
  },
];

describe("each ecosystem's order against its own tool", () => {
  let t: TestApp;
  let known: Map<string, Ecosystem>;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    known = ecosystemsOf(t.app.formatRegistry);
  });
  afterAll(() => t.close());

  it.each(ORACLES)('$ecosystem orders as $tool does', (oracle) => {
    const ecosystem = known.get(oracle.ecosystem)!;
    const pairs = pairsOf(oracle.versions);
    const expected = oracle.compare(pairs);
    expect(expected).toHaveLength(pairs.length);
    const disagreements = pairs
      .map(([a, b], i) => ({ pair: `${a} vs ${b}`, tool: expected[i], ours: sign(ecosystem.compare(a, b)) }))
      .filter((d) => d.tool !== d.ours);
    expect(disagreements).toEqual([]);
  });
});
