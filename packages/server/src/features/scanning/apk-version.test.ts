import { describe, expect, it } from 'vitest';
import { compareApkVersions, isApkVersion } from './apk-version.js';

describe("Alpine's order of versions", () => {
  it('orders pre-releases, the release, post-releases, letters, more numbers and revisions as apk does', () => {
    const ascending = [
      '0.9',
      '1.0_alpha',
      '1.0_alpha2',
      '1.0_beta',
      '1.0_pre1',
      '1.0_rc1',
      '1.0_rc1-r1',
      '1.0',
      '1.0-r0',
      '1.0-r1',
      '1.0-r10',
      '1.0_cvs',
      '1.0_svn',
      '1.0_git20240101',
      '1.0_hg',
      '1.0_p1',
      '1.0_p2',
      '1.0a',
      '1.0b',
      '1.0.0',
      '1.0.1',
      '1.00.1',
      '1.01',
      '1.1',
      '1.9',
      '1.10',
      '2',
    ];
    for (let i = 0; i < ascending.length; i += 1)
      for (let j = 0; j < ascending.length; j += 1)
        expect(Math.sign(compareApkVersions(ascending[i]!, ascending[j]!)), `${ascending[i]} vs ${ascending[j]}`).toBe(
          Math.sign(i - j),
        );
  });

  it('compares a commit hash as text, after the suffixes and before the revision', () => {
    expect(compareApkVersions('1.4_git20240101~a3f91c-r0', '1.4_git20240101~b0-r0')).toBeLessThan(0);
    expect(compareApkVersions('1.4~a3f91c', '1.4')).toBeGreaterThan(0);
    expect(compareApkVersions('1.4~a3f91c-r1', '1.4~a3f91c-r0')).toBeGreaterThan(0);
  });

  it('reads only what the grammar allows', () => {
    for (const valid of ['1', '1.2.3', '2.0b', '1.1_alpha1', '0.9_git20240101', '1.4~a3f91c', '1.2-r3', '1.2_rc1_p2'])
      expect(isApkVersion(valid), valid).toBe(true);
    for (const invalid of [
      '',
      'v1.0',
      '1.',
      '1..2',
      '1.0-1',
      '1.0_foo',
      '1.0_',
      '1.0-r',
      '1.0a.1',
      '1.0~',
      '1.0-r1-r2',
    ])
      expect(isApkVersion(invalid), invalid).toBe(false);
  });
});
