import { describe, expect, it } from 'vitest';
import { matchRank, packageTypeOptions, packageTypeSearch } from './package-type-options';

const picked = (typed: string) =>
  packageTypeOptions()
    .filter((o) => packageTypeSearch.filterOption(typed, o))
    .sort((a, b) => packageTypeSearch.filterSort(a, b, { searchValue: typed }))
    .map((o) => o.label);

describe('the package-type picker', () => {
  it('puts the exact name first, then names starting so, then the rest', () => {
    expect(picked('Go')[0]).toBe('Go');
    expect(picked('go').indexOf('Go')).toBeLessThan(picked('go').indexOf('Cargo'));
    expect(picked('npm')[0]).toBe('npm');
    expect(picked('doc')[0]).toBe('Docker');
    expect(picked('zzz')).toEqual([]);
  });

  it('ranks a match by where it stands', () => {
    expect([matchRank('Go', 'go'), matchRank('Gradle', 'gr'), matchRank('Cargo', 'go')]).toEqual([0, 1, 3]);
  });
});
