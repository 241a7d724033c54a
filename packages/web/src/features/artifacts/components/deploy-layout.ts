/** Maven coordinates, as a POM names them. */
export interface MavenCoordinates {
  groupId: string;
  artifactId: string;
  version: string;
}

const ARCHIVE = /\.(zip|jar|war|ear|tar|tgz|tar\.gz)$/i;

/** Whether a file can be deployed as a bundle (its entries extracted). */
export const isArchiveName = (name: string): boolean => ARCHIVE.test(name);

/**
 * The coordinates a POM declares (groupId and version inherited from its parent when it has none
 * of its own); undefined when the text is no POM.
 */
export function coordinatesFromPom(text: string): MavenCoordinates | undefined {
  const doc = new DOMParser().parseFromString(text, 'application/xml');
  const project = doc.documentElement;
  if (!project || project.localName !== 'project' || doc.getElementsByTagName('parsererror').length) return undefined;
  const child = (parent: Element | undefined, name: string) =>
    parent ? ([...parent.children].find((c) => c.localName === name)?.textContent?.trim() ?? '') : '';
  const parent = [...project.children].find((c) => c.localName === 'parent');
  const coordinates = {
    groupId: child(project, 'groupId') || child(parent, 'groupId'),
    artifactId: child(project, 'artifactId'),
    version: child(project, 'version') || child(parent, 'version'),
  };
  return coordinates.artifactId ? coordinates : undefined;
}

/**
 * Where a file belongs in the Maven layout: `group/as/path/artifact/version/artifact-version[-classifier].ext`.
 * The classifier and extension come from the file's name when it starts with `artifact-version`
 * (`app-1.0-sources.jar`), otherwise from its extension alone.
 */
export function layoutPath({ groupId, artifactId, version }: MavenCoordinates, fileName: string): string {
  const base = `${artifactId}-${version}`;
  const ext = /\.tar\.gz$/i.test(fileName) ? 'tar.gz' : (fileName.split('.').pop() ?? '');
  let classifier = '';
  if (fileName.startsWith(`${base}-`)) {
    classifier = fileName.slice(base.length + 1, fileName.length - ext.length - 1);
  }
  return `${groupId.replace(/\./g, '/')}/${artifactId}/${version}/${base}${classifier ? `-${classifier}` : ''}.${ext}`;
}
