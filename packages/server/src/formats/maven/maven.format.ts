import type { Format, UpstreamFetch, UpstreamHit } from '../format.js';
import { parseMetadata } from './maven.metadata.js';
import { mavenPlainPaths } from './maven.files.js';
import { checksumOf, compareMavenVersions, isMetadataPath, isSnapshotVersion, parseMavenPath } from './maven.path.js';
import { CLASS_ARCHIVE_EXTENSIONS, classOf } from './maven.classes.js';
import { parsePom } from './maven.pom.js';

/**
 * A Maven repository has no search of its own: `group:artifact` (or `group/artifact`) is looked up
 * in the artifact's `maven-metadata.xml`, each listed version a hit (its POM); other terms find nothing.
 */
async function searchUpstream(term: string, fetch: UpstreamFetch): Promise<UpstreamHit[]> {
  const match = /^([\w.-]+)[:/]([\w.-]+)$/.exec(term.trim());
  // anything else is no Maven coordinate: this repository has nothing to say
  if (!match) return [];
  const [, groupId, artifactId] = match as unknown as [string, string, string];
  const folder = `${groupId.replaceAll('.', '/')}/${artifactId}`;
  const response = await fetch(`${folder}/maven-metadata.xml`);
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined);
    return [];
  }
  if (!response.ok) throw new Error(`The upstream answered ${response.status} for ${folder}/maven-metadata.xml.`);
  const metadata = parseMetadata(await response.text());
  if (!metadata) throw new Error(`The upstream's ${folder}/maven-metadata.xml is not Maven metadata.`);
  return [...metadata.versions].reverse().map((version) => ({
    name: `${groupId}:${artifactId}`,
    version,
    path: `${folder}/${version}/${artifactId}-${version}.pom`,
  }));
}

/**
 * Maven and Gradle (the Maven 2 layout) at the repositories' own addresses
 * `/artifactory/{repoKey}/{group}/{artifact}/{version}/{file}`: deploy with checksum and POM checks,
 * `maven-metadata.xml` calculated by the server, snapshots, remote proxies whose metadata expires,
 * virtual repositories whose metadata merges their members'.
 */
export const mavenFormat: Format = {
  types: ['maven', 'gradle'],
  defaultUpstream: 'https://repo1.maven.org/maven2/',
  plainPaths: mavenPlainPaths,
  searchUpstream,
  versions: { ecosystems: ['Maven'], compare: compareMavenVersions, valid: (version) => version.trim() !== '' },
  layout: {
    parse(path) {
      const file = parseMavenPath(path);
      return file && { module: file.artifactId, version: file.version, fileVersion: file.fileVersion };
    },
    compareVersions: compareMavenVersions,
    isIntegration: isSnapshotVersion,
  },
  // Java archives deployed anywhere (a Maven repository or generic files) are read for their classes
  classes: { archiveExtensions: CLASS_ARCHIVE_EXTENSIONS, classOf },
  remoteMetadata: { isMetadata: (path) => isMetadataPath(path) || isMetadataPath(checksumOf(path)?.base ?? '') },
  versionFolder: true,
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
