import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CataloguePackage, CatalogueVersion, Connection } from '@arca/contracts';
import { catalogueQuery } from './graphql';
import { packagesKeys } from './keys';

const PACKAGE = /* GraphQL */ `
  query Package($id: ID!) {
    package(id: $id) {
      id
      name
      packageType
      description
      created
      modified
      versionsCount
      latestVersion
      licenses {
        name
        source
      }
      tags
      stats {
        downloads
      }
      readme
    }
  }
`;

const VERSIONS = /* GraphQL */ `
  query Versions($id: ID!) {
    versions(packageId: $id, limit: 500) {
      totalCount
      edges {
        node {
          name
          packageId
          created
          modified
          repos {
            name
            type
            leadFilePath
          }
          licenses {
            name
          }
          size
          stats {
            downloadCount
          }
          files {
            name
            size
            mimeType
            lead
            sha256
          }
          digest
          dependencies {
            name
            version
          }
          properties {
            name
            values
          }
        }
      }
    }
  }
`;

export function getPackage(id: string): Promise<CataloguePackage | null> {
  return catalogueQuery<{ package: CataloguePackage | null }>('package', PACKAGE, { id }).then((d) => d.package);
}

/** A package's versions, newest first (the server sorts them in semver order). */
export function getVersions(id: string): Promise<CatalogueVersion[]> {
  return catalogueQuery<{ versions: Connection<CatalogueVersion> }>('versions', VERSIONS, { id }).then((d) =>
    d.versions.edges.map((e) => e.node),
  );
}

export const packageQuery = (id: string) =>
  queryOptions({ queryKey: packagesKeys.one(id), queryFn: () => getPackage(id) });
export const versionsQuery = (id: string) =>
  queryOptions({ queryKey: packagesKeys.versions(id), queryFn: () => getVersions(id) });

export function usePackage(id: string) {
  return useQuery(packageQuery(id));
}

export function useVersions(id: string) {
  return useQuery(versionsQuery(id));
}
