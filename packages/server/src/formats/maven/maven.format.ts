import type { Format } from '../format.js';
import { mavenPlainPaths } from './maven.files.js';
import { checksumOf, isMetadataPath, parseMavenPath } from './maven.path.js';
import { parsePom } from './maven.pom.js';

/**
 * Maven and Gradle (the Maven 2 layout) at the repositories' own addresses
 * `/artifactory/{repoKey}/{group}/{artifact}/{version}/{file}`: deploy with checksum and POM checks,
 * `maven-metadata.xml` calculated by the server, snapshots, remote proxies whose metadata expires,
 * virtual repositories whose metadata merges their members'.
 */
export const mavenFormat: Format = {
  types: ['maven', 'gradle'],
  label: 'Maven',
  defaultUpstream: 'https://repo1.maven.org/maven2/',
  plainPaths: mavenPlainPaths,
  remoteMetadata: { isMetadata: (path) => isMetadataPath(path) || isMetadataPath(checksumOf(path)?.base ?? '') },
  /** A POM at its place in the layout: the version's coordinates (GAVC), description, licences and dependencies. */
  async index(file, content) {
    const coordinates = parseMavenPath(file.path);
    if (!coordinates || coordinates.extension !== 'pom') return undefined;
    let pom;
    try {
      pom = parsePom((await content.read(file)).toString('utf8'));
    } catch {
      return undefined;
    }
    const { groupId, artifactId, version } = coordinates;
    return {
      name: `${groupId}:${artifactId}`,
      version,
      ...(pom.description ? { description: pom.description } : pom.name ? { description: pom.name } : {}),
      licenses: pom.licenses,
      tags: [],
      dependencies: pom.dependencies,
      fields: {
        groupId,
        artifactId,
        version,
        packaging: pom.packaging,
        ...(coordinates.snapshot ? { snapshotVersion: coordinates.fileVersion } : {}),
      },
    };
  },
};
