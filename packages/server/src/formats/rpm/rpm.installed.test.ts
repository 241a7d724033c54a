import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rpmDatabase } from './rpm.installed.js';

const top = fs.mkdtempSync(path.join(os.tmpdir(), 'arca-rpmdb-'));
afterAll(() => fs.rmSync(top, { recursive: true, force: true }));

/** A noarch package built by rpmbuild: `name` from the source package `source` (a subpackage when they differ). */
function buildRpm(source: string, name: string, evr: { epoch?: number; version: string; release: string }): string {
  const spec = path.join(top, `${name}.spec`);
  const sub = name === source ? '' : name.slice(source.length + 1);
  fs.writeFileSync(
    spec,
    [
      `Name: ${source}`,
      ...(evr.epoch ? [`Epoch: ${evr.epoch}`] : []),
      `Version: ${evr.version}`,
      `Release: ${evr.release}`,
      'Summary: for tests',
      'License: MIT',
      'BuildArch: noarch',
      '%description',
      'For tests.',
      ...(sub
        ? [`%package ${sub}`, 'Summary: part of it', `%description ${sub}`, 'Part of it.', `%files ${sub}`]
        : ['%files']),
      '',
    ].join('\n'),
  );
  execFileSync('rpmbuild', ['--define', `_topdir ${top}/build`, '--quiet', '-bb', spec], { stdio: 'ignore' });
  return path.join(top, 'build/RPMS/noarch', `${name}-${evr.version}-${evr.release}.noarch.rpm`);
}

describe("rpm's database of installed packages", () => {
  it('reads every package rpm installed: the source package advisories name, the package, its epoch, version and release', () => {
    const db = path.join(top, 'db');
    execFileSync('rpm', ['--dbpath', db, '--initdb'], { stdio: 'ignore' });
    const packages = [
      buildRpm('openssl', 'openssl-libs', { epoch: 1, version: '3.0.7', release: '24.el9' }),
      buildRpm('zlib', 'zlib', { version: '1.2.11', release: '40.el9' }),
    ];
    execFileSync('rpm', ['--dbpath', db, '-i', '--justdb', '--nodeps', '--noscripts', ...packages], {
      stdio: 'ignore',
    });
    const read = rpmDatabase.read([fs.readFileSync(path.join(db, 'rpmdb.sqlite'))]);
    expect(read.sort((a, b) => a.binary.localeCompare(b.binary))).toEqual([
      { name: 'openssl', binary: 'openssl-libs', version: '1:3.0.7-24.el9' },
      { name: 'zlib', binary: 'zlib', version: '1.2.11-40.el9' },
    ]);
  });

  it("says that rpm's older Berkeley DB database is not read", () => {
    const berkeley = Buffer.alloc(4096);
    berkeley.writeUInt32LE(0x00061561, 12);
    expect(() => rpmDatabase.read([berkeley])).toThrow(/Berkeley DB database \(RHEL 8 and older\) is not read/);
  });

  it('names the advisories of the release by os-release: the major release where OSV has the distribution, else its own name', () => {
    expect(rpmDatabase.ecosystem({ ID: 'rocky', VERSION_ID: '9.3' })).toBe('Rocky Linux:9');
    expect(rpmDatabase.ecosystem({ ID: 'almalinux', VERSION_ID: '8.10' })).toBe('AlmaLinux:8');
    expect(rpmDatabase.ecosystem({ ID: 'rhel', VERSION_ID: '9.4' })).toBe('Red Hat:enterprise_linux:9');
    expect(rpmDatabase.ecosystem({ ID: 'fedora', NAME: 'Fedora Linux', VERSION_ID: '40' })).toBe('Fedora Linux:40');
  });
});
