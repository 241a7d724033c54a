import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { CataloguePackage, Connection, PackageSortField } from '@arca/contracts';
import { catalogueQuery } from './graphql';
import { packagesKeys } from './keys';

export interface PackageFilters {
  /** A name with `*` and `?` wildcards; empty for every package. */
  name: string;
  /** A package type, or '' for all. */
  type: string;
  sortBy: PackageSortField;
  sortType: 'asc' | 'desc';
}

const PAGE = 25;

const QUERY = /* GraphQL */ `
  query Packages($filter: PackageFilter, $sortBy: SortBy, $sortType: SortType, $limit: Int, $after: String) {
    packages(filter: $filter, sort_by: $sortBy, sort_type: $sortType, limit: $limit, after: $after) {
      totalCount
      edges {
        cursor
        node {
          id
          name
          packageType
          description
          modified
          versionsCount
          latestVersion
          licenses {
            name
          }
          tags
          stats {
            downloads
          }
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`;

export function getPackages(filters: PackageFilters, after: string | null): Promise<Connection<CataloguePackage>> {
  return catalogueQuery<{ packages: Connection<CataloguePackage> }>('packages', QUERY, {
    filter: {
      ...(filters.name ? { lowercase_name: filters.name.toLowerCase() } : {}),
      ...(filters.type ? { package_type: [filters.type] } : {}),
    },
    sortBy: filters.sortBy,
    sortType: filters.sortType,
    limit: PAGE,
    after,
  }).then((data) => data.packages);
}

export const packagesQuery = (filters: PackageFilters) =>
  infiniteQueryOptions({
    queryKey: packagesKeys.list(filters),
    queryFn: ({ pageParam }) => getPackages(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.pageInfo.hasNextPage ? last.pageInfo.endCursor : undefined),
  });

export function usePackages(filters: PackageFilters) {
  return useInfiniteQuery(packagesQuery(filters));
}
