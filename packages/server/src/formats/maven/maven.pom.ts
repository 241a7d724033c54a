import { XMLParser } from 'fast-xml-parser';

/** What Arca reads off a POM: its coordinates (the parent's group and version when it inherits them) and facts for the catalogue. */
export interface Pom {
  groupId: string;
  artifactId: string;
  version: string;
  packaging: string;
  name?: string;
  description?: string;
  licenses: string[];
  dependencies: Record<string, string>;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: false,
  isArray: (name) => name === 'dependency' || name === 'license',
});

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** Parses a POM; throws with the reason when it is not one. */
export function parsePom(xml: string): Pom {
  const doc = parser.parse(xml, true) as { project?: Record<string, unknown> };
  const project = doc.project;
  if (!project || typeof project !== 'object') throw new Error('it has no <project> element');
  const parent = (project.parent ?? {}) as Record<string, unknown>;
  const licenses = ((project.licenses ?? {}) as { license?: Record<string, unknown>[] }).license ?? [];
  const dependencies: Record<string, string> = {};
  const declared = ((project.dependencies ?? {}) as { dependency?: Record<string, unknown>[] }).dependency ?? [];
  for (const d of declared) {
    const scope = text(d.scope);
    if (scope === 'test' || scope === 'provided' || text(d.optional) === 'true') continue;
    dependencies[`${text(d.groupId)}:${text(d.artifactId)}`] = text(d.version) || '*';
  }
  return {
    groupId: text(project.groupId) || text(parent.groupId),
    artifactId: text(project.artifactId),
    version: text(project.version) || text(parent.version),
    packaging: text(project.packaging) || 'jar',
    ...(text(project.name) ? { name: text(project.name) } : {}),
    ...(text(project.description) ? { description: text(project.description) } : {}),
    licenses: licenses.map((l) => text(l.name)).filter(Boolean),
    dependencies,
  };
}
