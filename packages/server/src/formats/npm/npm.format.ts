import type { Format } from '../format.js';
import { mergePackuments, parsePackument, type Packument } from './npm.packument.js';
import { npmRoutes } from './npm.routes.js';

/** `.npm/{name}/package.json` → `{name}` with a scope's slash encoded, as registries serve packuments. */
function upstreamPath(path: string): string {
  const packument = /^\.npm\/(.+)\/package\.json$/.exec(path);
  if (packument) return packument[1]!.split('/').map(encodeURIComponent).join('%2f');
  // tarballs: `{@scope/}{name}/-/{file}` as they are, the scope's '@' kept
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/^%40/, '@'))
    .join('/');
}

/** npm, pnpm and yarn at `/artifactory/api/npm/{repoKey}/`. */
export const npmFormat: Format = {
  types: ['npm'],
  label: 'npm',
  defaultUpstream: 'https://registry.npmjs.org/',
  routes: npmRoutes,
  remoteMetadata: { isMetadata: (path) => path.startsWith('.npm/'), upstreamPath },
  async mergeVirtual(_path, members, content) {
    const docs: Packument[] = [];
    for (const member of members) {
      const chunks: Buffer[] = [];
      for await (const chunk of content.open(member.item)) chunks.push(chunk as Buffer);
      const doc = parsePackument(Buffer.concat(chunks).toString('utf8'));
      if (doc) docs.push(doc);
    }
    return Buffer.from(JSON.stringify(mergePackuments(docs) ?? {}));
  },
};
