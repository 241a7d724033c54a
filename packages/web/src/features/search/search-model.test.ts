import { describe, expect, it } from 'vitest';
import {
  changeType,
  emptyModel,
  fromSearchParams,
  invalidReason,
  recentSearches,
  rememberSearch,
  searchRequest,
  toSearchParams,
} from './search-model';

describe('the search model', () => {
  it('makes a shareable query string and reads it back', () => {
    const model = {
      ...emptyModel('property'),
      properties: [{ key: 'build.number', values: ['41', '42'] }],
      repositories: ['libs', 'other'],
    };
    const params = toSearchParams(model);
    expect(params.toString()).toBe('searchType=property&properties=build.number%3A41%2C42&repo=libs%2Cother');
    expect(fromSearchParams(params)).toEqual(model);
    const gavc = { ...emptyModel('gavc'), groupID: 'org.acme', version: '1.*' };
    expect(fromSearchParams(toSearchParams(gavc))).toEqual(gavc);
  });

  it('falls back to Quick for Archive (no archive search) and unknown types', () => {
    expect(fromSearchParams(new URLSearchParams('searchType=archive&name=app')).searchType).toBe('quick');
    expect(fromSearchParams(new URLSearchParams('name=app')).name).toBe('app');
  });

  it('keeps the name and resets the rest on a type change', () => {
    const model = { ...emptyModel('quick', 'app'), repositories: ['libs'] };
    expect(changeType(model, 'class')).toEqual(emptyModel('class', 'app'));
  });

  it('refuses blank searches and wrong checksum lengths with the spec’s messages', () => {
    expect(invalidReason(emptyModel('quick', '  '))).toBe('Type something to search for.');
    expect(invalidReason(emptyModel('quick', '*?'))).toBe('Type something to search for.');
    expect(invalidReason({ ...emptyModel('checksum'), checksum: 'abc' })).toBe('Invalid Checksum Length');
    expect(invalidReason({ ...emptyModel('checksum'), checksum: 'a'.repeat(40) })).toBeUndefined();
    expect(invalidReason({ ...emptyModel('package'), packageQuery: [{ id: 'npmName', values: ['a*?'] }] })).toBe(
      'Type at least 3 characters to search for packages.',
    );
  });

  it('sends the bodies of spec part 2 §7.9', () => {
    expect(searchRequest({ ...emptyModel('quick', 'app'), repositories: ['libs'] })).toEqual({
      path: 'quick',
      body: { query: 'app', selectedRepositories: ['libs'], search: 'quick' },
    });
    expect(
      searchRequest({
        ...emptyModel('package'),
        packageType: 'npm',
        packageQuery: [{ id: 'npmName', values: ['lod'] }],
      }),
    ).toEqual({
      path: 'pkg',
      body: [
        { id: 'pkgType', values: ['npm'] },
        { id: 'npmName', values: ['lod'] },
      ],
    });
  });

  it('remembers searches per user: newest first, de-duplicated by query and type, at most 10', () => {
    for (let i = 0; i < 12; i++) rememberSearch('ann', emptyModel('quick', `app${i}`));
    rememberSearch('ann', emptyModel('quick', 'app5'));
    const list = recentSearches('ann');
    expect(list).toHaveLength(10);
    expect(list.map((r) => r.label).slice(0, 3)).toEqual(['app5', 'app11', 'app10']);
    expect(list.filter((r) => r.label === 'app5')).toHaveLength(1);
    expect(recentSearches('bob')).toEqual([]);
  });
});
