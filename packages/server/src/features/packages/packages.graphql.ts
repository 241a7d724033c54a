import type { FastifyRequest } from 'fastify';
import type { PackageSortField } from '@arca/contracts';
import { Catalogue } from './packages.service.js';

/**
 * The catalogue's GraphQL schema (the metadata service's `/mds` calls): packages with the spec's
 * filters (`lowercase_name` with wildcards, `package_type`, `repos`), `sort_by`/`sort_type` and
 * `limit`, one package, and a package's versions — lists as Relay-style connections.
 */
export const schema = /* GraphQL */ `
  type License {
    name: String!
    source: String!
  }
  type PackageStats {
    downloads: Float!
  }
  type Package {
    id: ID!
    name: String!
    packageType: String!
    description: String!
    created: String!
    modified: String!
    versionsCount: Int!
    latestVersion: String!
    licenses: [License!]!
    tags: [String!]!
    stats: PackageStats!
    readme: String
  }
  type PageInfo {
    hasNextPage: Boolean!
    endCursor: String
  }
  type PackageEdge {
    cursor: String!
    node: Package!
  }
  type PackageConnection {
    edges: [PackageEdge!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  type VersionRepo {
    name: String!
    type: String!
    leadFilePath: String!
  }
  type VersionFile {
    name: String!
    size: Float!
    mimeType: String!
    lead: Boolean!
    sha256: String!
  }
  type VersionStats {
    downloadCount: Float!
  }
  type Dependency {
    name: String!
    version: String!
  }
  type VersionProperty {
    name: String!
    values: [String!]!
  }
  type Version {
    name: String!
    packageId: ID!
    created: String!
    modified: String!
    repos: [VersionRepo!]!
    licenses: [License!]!
    size: Float!
    stats: VersionStats!
    files: [VersionFile!]!
    digest: String!
    dependencies: [Dependency!]!
    properties: [VersionProperty!]!
  }
  type VersionEdge {
    cursor: String!
    node: Version!
  }
  type VersionConnection {
    edges: [VersionEdge!]!
    pageInfo: PageInfo!
    totalCount: Int!
  }
  input PackageFilter {
    lowercase_name: String
    description: String
    tags: [String!]
    version: String
    checksum: String
    scope: String
    package_type: [String!]
    repos: [String!]
  }
  enum SortBy {
    name
    created
    modified
    downloads
    versionsCount
  }
  enum SortType {
    asc
    desc
  }
  type Query {
    packages(filter: PackageFilter, sort_by: SortBy, sort_type: SortType, limit: Int, after: String): PackageConnection!
    package(id: ID!): Package
    versions(packageId: ID!, limit: Int, after: String): VersionConnection!
  }
`;

export interface GraphContext {
  catalogue: Catalogue;
}

export const contextOf = (request: FastifyRequest): GraphContext => ({ catalogue: new Catalogue(request) });

interface PackagesArgs {
  filter?: {
    lowercase_name?: string | null;
    description?: string | null;
    tags?: string[] | null;
    version?: string | null;
    checksum?: string | null;
    scope?: string | null;
    package_type?: string[] | null;
    repos?: string[] | null;
  } | null;
  sort_by?: PackageSortField | null;
  sort_type?: 'asc' | 'desc' | null;
  limit?: number | null;
  after?: string | null;
}

export const resolvers = {
  Query: {
    packages: (_root: unknown, args: PackagesArgs, { catalogue }: GraphContext) =>
      catalogue.packages({
        ...(args.filter?.lowercase_name ? { name: args.filter.lowercase_name } : {}),
        ...(args.filter?.package_type ? { packageTypes: args.filter.package_type } : {}),
        ...(args.filter?.repos ? { repos: args.filter.repos } : {}),
        ...(args.filter?.description ? { description: args.filter.description } : {}),
        ...(args.filter?.tags ? { tags: args.filter.tags } : {}),
        ...(args.filter?.version ? { version: args.filter.version } : {}),
        ...(args.filter?.checksum ? { checksum: args.filter.checksum } : {}),
        ...(args.filter?.scope ? { scope: args.filter.scope } : {}),
        ...(args.sort_by ? { sortBy: args.sort_by } : {}),
        ...(args.sort_type ? { sortType: args.sort_type } : {}),
        ...(args.limit ? { limit: args.limit } : {}),
        after: args.after ?? null,
      }),
    package: async (_root: unknown, args: { id: string }, { catalogue }: GraphContext) =>
      (await catalogue.package(args.id)) ?? null,
    versions: (
      _root: unknown,
      args: { packageId: string; limit?: number | null; after?: string | null },
      { catalogue }: GraphContext,
    ) => catalogue.versions(args.packageId, args.limit ?? undefined, args.after ?? null),
  },
};

declare module 'mercurius' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface MercuriusContext extends GraphContext {}
}
