import { describe, expect, it } from 'vitest';
import { LICENSE_EDITION_RANKS, installLicenseBodySchema, licenseLogoGroup, licenseRank } from './license.js';

describe('licence editions', () => {
  it('ranks every edition exactly as the specification lists', () => {
    expect(LICENSE_EDITION_RANKS).toEqual({
      NONE: 0,
      OSS: 1,
      CONAN: 1,
      JCR: 1,
      COMMERCIAL: 2,
      COMMERCIAL_X: 2,
      TRIAL: 3,
      EDGE: 4,
      EDGE_TRIAL: 4,
      ENTERPRISE: 4,
      ENTERPRISE_X: 4,
      ENTERPRISE_PLUS_TRIAL: 5,
      ENTERPRISE_PLUS: 5,
    });
  });
  it('ranks an unknown or missing edition 0', () => {
    expect(licenseRank('GOLD')).toBe(0);
    expect(licenseRank(undefined)).toBe(0);
    expect(licenseRank('ENTERPRISE_PLUS')).toBe(5);
  });
  it('picks the default logo group by edition', () => {
    expect(licenseLogoGroup('JCR')).toBe('jcr');
    expect(licenseLogoGroup('CONAN')).toBe('conan');
    expect(licenseLogoGroup('EDGE_TRIAL')).toBe('edge');
    expect(licenseLogoGroup('OSS')).toBe('oss');
    expect(licenseLogoGroup('ENTERPRISE')).toBe('default');
  });
  it('requires a licence key', () => {
    const result = installLicenseBodySchema.safeParse({ licenseKey: '  ' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('This field is mandatory.');
  });
});
