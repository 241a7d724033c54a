import { CHECKSUM_LENGTHS, RECENT_SEARCHES_MAX, SEARCH_MESSAGES, type RecentSearch } from '@arca/contracts';

/** The search types the console offers, in the order of the type selector. */
export const CONSOLE_SEARCH_TYPES = [
  { name: 'quick', displayName: 'Quick', isSupportingContext: true },
  { name: 'package', displayName: 'Package', isSupportingContext: true },
  { name: 'property', displayName: 'Property', isSupportingContext: true },
  { name: 'checksum', displayName: 'Checksum', isSupportingContext: true },
  { name: 'class', displayName: 'Java class', isSupportingContext: true },
  { name: 'gavc', displayName: 'Maven GAVC', isSupportingContext: true },
  { name: 'remote', displayName: 'Remote', isSupportingContext: false },
  { name: 'trash', displayName: 'Trash', isSupportingContext: false },
  /** Archived artifacts (administrators): answered by the archive search page. */
  { name: 'archive', displayName: 'Archive', isSupportingContext: false },
  /** Release bundles by name: answered by the release bundles page, filtered. */
  { name: 'releaseBundles', displayName: 'Release bundles', isSupportingContext: false },
  /** Advisories, CVE ids and packages among the scanned versions: answered by the vulnerability search page. */
  { name: 'security', displayName: 'Security scanning', isSupportingContext: false },
] as const;
export type ConsoleSearchType = (typeof CONSOLE_SEARCH_TYPES)[number]['name'];

/** The search model of spec part 1 §3, as the console keeps it. */
export interface SearchModel {
  searchType: ConsoleSearchType;
  name: string;
  repositories: string[];
  checksum: string;
  isChecksum: boolean;
  path: string;
  excludeInnerClasses: boolean;
  searchClassOnly: boolean;
  /** key → values (any of which matches). */
  properties: { key: string; values: string[] }[];
  /** Package search: the type (`all`, `npm` …) and field id → values. */
  packageType: string;
  packageQuery: { id: string; values: string[] }[];
  groupID: string;
  artifactID: string;
  version: string;
  classifier: string;
}

export const emptyModel = (searchType: ConsoleSearchType = 'quick', name = ''): SearchModel => ({
  searchType,
  name,
  repositories: [],
  checksum: '',
  isChecksum: false,
  path: '',
  excludeInnerClasses: false,
  searchClassOnly: false,
  properties: [],
  packageType: 'all',
  packageQuery: [],
  groupID: '',
  artifactID: '',
  version: '',
  classifier: '',
});

/** A type change resets the model but keeps the name (spec §2). */
export const changeType = (model: SearchModel, searchType: ConsoleSearchType): SearchModel =>
  emptyModel(searchType, model.name);

const isType = (value: string | null): value is ConsoleSearchType => CONSOLE_SEARCH_TYPES.some((t) => t.name === value);

/** `k:v1,v2;k2:v` ↔ pairs (the URL form of properties and package fields). */
const pairsToText = (pairs: { key?: string; id?: string; values: string[] }[]) =>
  pairs
    .filter((p) => (p.key ?? p.id) && p.values.length)
    .map((p) => `${p.key ?? p.id}:${p.values.join(',')}`)
    .join(';');
const textToPairs = (text: string | null) =>
  (text ?? '')
    .split(';')
    .map((part) => {
      const colon = part.indexOf(':');
      return colon > 0
        ? {
            key: part.slice(0, colon).trim(),
            values: part
              .slice(colon + 1)
              .split(',')
              .map((v) => v.trim())
              .filter(Boolean),
          }
        : undefined;
    })
    .filter((p): p is { key: string; values: string[] } => Boolean(p?.key && p.values.length));

/**
 * The results page's query string for a model: the query names of spec §2 (searchType, name,
 * repo, checksum, properties, path, excludeInnerClasses, searchClassOnly, pkgType, packageQuery,
 * version …), only those the type uses, so that a search is a shareable link.
 */
export function toSearchParams(model: SearchModel): URLSearchParams {
  const params = new URLSearchParams({ searchType: model.searchType });
  const set = (key: string, value: string | boolean) => {
    if (value === true) params.set(key, 'true');
    else if (typeof value === 'string' && value.trim()) params.set(key, value.trim());
  };
  switch (model.searchType) {
    case 'quick':
    case 'remote':
    case 'archive':
      set('name', model.name);
      break;
    case 'trash':
      set('name', model.name);
      set('isChecksum', model.isChecksum);
      break;
    case 'checksum':
      set('checksum', model.checksum || model.name);
      break;
    case 'class':
      set('name', model.name);
      set('path', model.path);
      set('excludeInnerClasses', model.excludeInnerClasses);
      set('searchClassOnly', model.searchClassOnly);
      break;
    case 'property':
      set('properties', pairsToText(model.properties));
      break;
    case 'package':
      set('pkgType', model.packageType);
      set('packageQuery', pairsToText(model.packageQuery));
      break;
    case 'gavc':
      set('groupID', model.groupID);
      set('artifactID', model.artifactID);
      set('version', model.version);
      set('classifier', model.classifier);
      break;
  }
  if (model.searchType !== 'remote' && model.searchType !== 'trash') set('repo', model.repositories.join(','));
  return params;
}

/** The model a results page's query string stands for; Archive (answered by the archive search page) falls back to Quick. */
export function fromSearchParams(params: URLSearchParams): SearchModel {
  const raw = params.get('searchType');
  const model = emptyModel(isType(raw) && raw !== 'archive' ? raw : 'quick');
  const text = (key: string) => params.get(key)?.trim() ?? '';
  return {
    ...model,
    name: text('name'),
    repositories: text('repo').split(',').filter(Boolean),
    checksum: text('checksum'),
    isChecksum: params.get('isChecksum') === 'true',
    path: text('path'),
    excludeInnerClasses: params.get('excludeInnerClasses') === 'true',
    searchClassOnly: params.get('searchClassOnly') === 'true',
    properties: textToPairs(params.get('properties')),
    packageType: text('pkgType') || 'all',
    packageQuery: textToPairs(params.get('packageQuery')).map(({ key, values }) => ({ id: key, values })),
    groupID: text('groupID'),
    artifactID: text('artifactID'),
    version: text('version'),
    classifier: text('classifier'),
  };
}

/** Why a model cannot be searched (spec §5 messages), or undefined when it can. */
export function invalidReason(model: SearchModel): string | undefined {
  const significant = (value: string) => value.replace(/[*?]/g, '').trim();
  switch (model.searchType) {
    case 'quick':
    case 'remote':
    case 'archive':
      return significant(model.name) ? undefined : SEARCH_MESSAGES.emptyQuery;
    case 'trash':
      if (model.isChecksum) return checksumReason(model.name);
      return significant(model.name) ? undefined : SEARCH_MESSAGES.emptyQuery;
    case 'checksum':
      return checksumReason(model.checksum || model.name);
    case 'class':
      return significant(model.name + model.path) ? undefined : SEARCH_MESSAGES.noClass;
    case 'property':
      return model.properties.some((p) => p.key.trim()) ? undefined : SEARCH_MESSAGES.noProperty;
    case 'package':
      return significant(model.packageQuery.flatMap((q) => q.values).join('')).length >= 3
        ? undefined
        : SEARCH_MESSAGES.packageTooShort;
    case 'gavc':
      return [model.groupID, model.artifactID, model.version, model.classifier].some((v) => v.trim())
        ? undefined
        : SEARCH_MESSAGES.noCoordinates;
  }
}

function checksumReason(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return SEARCH_MESSAGES.emptyQuery;
  return trimmed.length in CHECKSUM_LENGTHS && /^[0-9a-f]+$/i.test(trimmed)
    ? undefined
    : SEARCH_MESSAGES.invalidChecksum;
}

/** The console call (`POST /ui/artifactsearch/{path}`) and its body, exactly as spec part 2 §7.9 gives them. */
export function searchRequest(model: SearchModel): { path: string; body: unknown } {
  const selectedRepositories = model.repositories;
  const search = model.searchType;
  switch (model.searchType) {
    // archive and release bundle searches are answered by their own pages; a stored model of them searches as quick
    case 'quick':
    case 'archive':
    case 'releaseBundles':
    case 'security':
      return { path: 'quick', body: { query: model.name, selectedRepositories, search: 'quick' } };
    case 'checksum':
      return { path: 'checksum', body: { checksum: model.checksum || model.name, selectedRepositories, search } };
    case 'remote':
      return { path: 'remote', body: { searchKey: model.name, search } };
    case 'trash':
      return { path: 'trash', body: { query: model.name, isChecksum: model.isChecksum, search } };
    case 'class':
      return {
        path: 'class',
        body: {
          name: model.name,
          path: model.path,
          excludeInnerClasses: model.excludeInnerClasses,
          searchClassOnly: model.searchClassOnly,
          selectedRepositories,
          search,
        },
      };
    case 'property':
      return { path: 'property', body: { propertyKeyValues: model.properties, selectedRepositories, search } };
    case 'package':
      return {
        path: 'pkg',
        body: [
          { id: 'pkgType', values: [model.packageType] },
          ...(selectedRepositories.length ? [{ id: 'repo', values: selectedRepositories }] : []),
          ...model.packageQuery.filter((q) => q.values.length),
        ],
      };
    case 'gavc':
      return {
        path: 'gavc',
        body: {
          groupID: model.groupID,
          artifactID: model.artifactID,
          version: model.version,
          classifier: model.classifier,
          selectedRepositories,
          search,
        },
      };
  }
}

/** What a recent search shows: the type and the terms. */
export function describe(model: SearchModel): string {
  switch (model.searchType) {
    case 'checksum':
      return model.checksum || model.name;
    case 'property':
      return pairsToText(model.properties).replaceAll(';', '; ');
    case 'package':
      return pairsToText(model.packageQuery).replaceAll(';', '; ');
    case 'gavc':
      return [model.groupID, model.artifactID, model.version, model.classifier].map((v) => v || '*').join(':');
    case 'class':
      return [model.path, model.name].filter(Boolean).join('.');
    default:
      return model.name;
  }
}

const storageKey = (user: string) => `arca.recentSearches.${user}`;

/** The user's recent searches, newest first. */
export function recentSearches(user: string, storage: Storage = localStorage): RecentSearch[] {
  try {
    const parsed = JSON.parse(storage.getItem(storageKey(user)) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as RecentSearch[]).slice(0, RECENT_SEARCHES_MAX) : [];
  } catch {
    return [];
  }
}

/** Remembers a search: de-duplicated by query and type, newest first, at most RECENT_SEARCHES_MAX. */
export function rememberSearch(user: string, model: SearchModel, storage: Storage = localStorage): RecentSearch[] {
  const query = toSearchParams(model).toString();
  const entry: RecentSearch = {
    id: `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    type: model.searchType as RecentSearch['type'],
    query,
    label: describe(model),
  };
  const list = [entry, ...recentSearches(user, storage).filter((r) => !(r.query === query && r.type === entry.type))];
  const kept = list.slice(0, RECENT_SEARCHES_MAX);
  storage.setItem(storageKey(user), JSON.stringify(kept));
  return kept;
}
