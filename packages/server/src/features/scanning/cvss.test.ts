import { describe, expect, it } from 'vitest';
import { cvssOf, ratingOf } from './cvss.js';
import { severityOf } from './scanning.store.js';

describe('CVSS', () => {
  it.each([
    ['CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 9.8, 'Critical'],
    ['CVSS_V3', 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L', 5.6, 'Medium'],
    ['CVSS_V3', 'CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N', 7.5, 'High'],
    ['CVSS_V3', 'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N', 1.8, 'Low'],
    ['CVSS_V2', 'AV:N/AC:L/Au:N/C:C/I:C/A:C', 10, 'High'],
    ['CVSS_V4', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 9.3, 'Critical'],
  ])('scores %s %s as %d, rated %s', (type, vector, score, rating) => {
    const cvss = cvssOf([{ type, score: vector }])!;
    expect(cvss.score).toBe(score);
    expect(ratingOf(cvss)).toBe(rating);
  });

  it('takes the newest CVSS version an advisory gives, and none that does not parse', () => {
    expect(
      cvssOf([
        { type: 'CVSS_V2', score: 'AV:N/AC:L/Au:N/C:P/I:P/A:P' },
        { type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:L/I:L/A:L' },
      ])?.version,
    ).toBe(3);
    expect(cvssOf([{ type: 'CVSS_V3', score: 'not a vector' }])).toBeUndefined();
    expect(cvssOf([{ type: 'Ubuntu', score: 'high' }])).toBeUndefined();
  });

  it("rates an advisory by its database's severity first, then by its CVSS score, else Unknown", () => {
    const record = { id: 'X-1', modified: '2026-01-01T00:00:00Z' };
    const critical = [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }];
    expect(severityOf({ ...record, severity: critical, database_specific: { severity: 'LOW' } })).toBe('Low');
    expect(severityOf({ ...record, severity: critical })).toBe('Critical');
    // OSV lets each affected package carry its own
    expect(
      severityOf({
        ...record,
        affected: [{ package: { ecosystem: 'PyPI', name: 'x' }, severity: critical }],
      }),
    ).toBe('Critical');
    expect(severityOf(record)).toBe('Unknown');
  });
});
