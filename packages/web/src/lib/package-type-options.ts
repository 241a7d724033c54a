import { PACKAGE_TYPES, packageTypeLabel } from '@arca/contracts';

export interface PackageTypeOption {
  value: string;
  label: string;
}

/** Every package type as a select option (value the id, label as people write it). */
export const packageTypeOptions = (): PackageTypeOption[] =>
  PACKAGE_TYPES.map((t) => ({ value: t, label: packageTypeLabel(t) }));

/**
 * How well a type's label answers what was typed: 0 the same, 1 it starts so, 2 a word of it
 * starts so, 3 it holds it somewhere, undefined not at all — so that "Go" picks Go before Cargo.
 */
export function matchRank(label: string, typed: string): number | undefined {
  const text = label.toLowerCase();
  const query = typed.trim().toLowerCase();
  if (!query) return 3;
  if (text === query) return 0;
  if (text.startsWith(query)) return 1;
  if (text.split(/[\s/._-]+/).some((word) => word.startsWith(query))) return 2;
  return text.includes(query) ? 3 : undefined;
}

/** The search of a package-type select: matches by label, the best match first, then by name. */
export const packageTypeSearch = {
  filterOption: (typed: string, option?: PackageTypeOption) =>
    option !== undefined && matchRank(option.label, typed) !== undefined,
  filterSort: (a: PackageTypeOption, b: PackageTypeOption, info: { searchValue: string }) =>
    (matchRank(a.label, info.searchValue) ?? 9) - (matchRank(b.label, info.searchValue) ?? 9) ||
    a.label.localeCompare(b.label),
};
