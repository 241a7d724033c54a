import { describe, expect, it } from 'vitest';
import { coordinatesFromPom, isArchiveName, layoutPath } from './deploy-layout';

describe('deploying by the Maven layout', () => {
  it('reads coordinates from a POM, inheriting from the parent', () => {
    const pom = `<?xml version="1.0"?>
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <parent><groupId>org.acme</groupId><artifactId>parent</artifactId><version>2.1</version></parent>
        <artifactId>app</artifactId>
      </project>`;
    expect(coordinatesFromPom(pom)).toEqual({ groupId: 'org.acme', artifactId: 'app', version: '2.1' });
    expect(coordinatesFromPom('<html></html>')).toBeUndefined();
    expect(coordinatesFromPom('not xml at all')).toBeUndefined();
  });

  it('places every file of the coordinates, with its classifier', () => {
    const gav = { groupId: 'org.acme', artifactId: 'app', version: '2.1' };
    expect(layoutPath(gav, 'app-2.1.jar')).toBe('org/acme/app/2.1/app-2.1.jar');
    expect(layoutPath(gav, 'pom.xml')).toBe('org/acme/app/2.1/app-2.1.xml');
    expect(layoutPath(gav, 'app-2.1.pom')).toBe('org/acme/app/2.1/app-2.1.pom');
    expect(layoutPath(gav, 'app-2.1-sources.jar')).toBe('org/acme/app/2.1/app-2.1-sources.jar');
    expect(layoutPath(gav, 'build-output.jar')).toBe('org/acme/app/2.1/app-2.1.jar');
    expect(layoutPath(gav, 'app-2.1-dist.tar.gz')).toBe('org/acme/app/2.1/app-2.1-dist.tar.gz');
  });

  it('knows which files can be deployed as bundles', () => {
    expect(['site.zip', 'a.tar.gz', 'b.tgz', 'c.txt'].map(isArchiveName)).toEqual([true, true, true, false]);
  });
});
