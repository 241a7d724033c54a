import { describe, expect, it } from 'vitest';
import { dpkgDatabase } from './debian.installed.js';

describe("dpkg's database of installed packages", () => {
  it('reads the installed packages of a status file by their source package, and skips what is not installed', () => {
    const status = [
      'Package: libssl3\nStatus: install ok installed\nSource: openssl\nVersion: 3.0.11-1~deb12u2\nDescription: x\n  more text: here',
      'Package: removed-one\nStatus: deinstall ok config-files\nVersion: 1.0\n',
      'Package: base-files\nStatus: install ok installed\nVersion: 12.4+deb12u5\n',
      'Package: libpcre2-8-0\nStatus: install ok installed\nSource: pcre2 (10.42-1)\nVersion: 10.42-1+b1\n',
    ].join('\n\n');
    expect(dpkgDatabase.read([Buffer.from(status)])).toEqual([
      { name: 'openssl', binary: 'libssl3', version: '3.0.11-1~deb12u2' },
      { name: 'base-files', binary: 'base-files', version: '12.4+deb12u5' },
      { name: 'pcre2', binary: 'libpcre2-8-0', version: '10.42-1+b1' },
    ]);
  });

  it("names the release's advisories as OSV does: Debian's by number, Ubuntu's with LTS where it is one", () => {
    expect(dpkgDatabase.ecosystem({ ID: 'debian', VERSION_ID: '12' })).toBe('Debian:12');
    expect(
      dpkgDatabase.ecosystem({ ID: 'ubuntu', VERSION_ID: '22.04', VERSION: '22.04.4 LTS (Jammy Jellyfish)' }),
    ).toBe('Ubuntu:22.04:LTS');
    expect(dpkgDatabase.ecosystem({ ID: 'ubuntu', VERSION_ID: '24.10', VERSION: '24.10 (Oracular Oriole)' })).toBe(
      'Ubuntu:24.10',
    );
    // a Debian without a release (testing, sid): the distribution's advisories of no release
    expect(dpkgDatabase.ecosystem({ ID: 'debian' })).toBe('Debian');
  });
});
