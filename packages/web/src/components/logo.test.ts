import { describe, expect, it } from 'vitest';
import { chooseLogo } from './logo';
import { formatTitle } from '../lib/page-title';

describe('footer logo choice', () => {
  it('prefers the user-uploaded logo, then the footer logo URL, then the edition default', () => {
    expect(chooseLogo({ userLogo: '/u.png', logoUrl: '/l.png', license: 'OSS' })).toEqual({
      kind: 'url',
      src: '/u.png',
    });
    expect(chooseLogo({ userLogo: null, logoUrl: '/l.png', license: 'OSS' })).toEqual({ kind: 'url', src: '/l.png' });
    expect(chooseLogo({ userLogo: null, logoUrl: null, license: 'JCR' })).toEqual({ kind: 'edition', group: 'jcr' });
    expect(chooseLogo({ userLogo: null, logoUrl: null, license: 'ENTERPRISE_PLUS' })).toEqual({
      kind: 'edition',
      group: 'default',
    });
    expect(chooseLogo(undefined)).toEqual({ kind: 'edition', group: 'default' });
  });
});

describe('page titles', () => {
  it("read 'title - server name', with a brand-neutral name when the server has none", () => {
    expect(formatTitle('Users', 'Acme Artifacts')).toBe('Users - Acme Artifacts');
    expect(formatTitle('Users', undefined)).toBe('Users - Arca');
    expect(formatTitle(undefined, 'Acme')).toBe('Acme');
  });
});
