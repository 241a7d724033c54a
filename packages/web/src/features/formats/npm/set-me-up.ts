import { type SetMeUpTarget, type Snippet } from '../snippet';

/** npm, pnpm and yarn: the registry address, a token in .npmrc, publish and install. */
export function npmSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey } = target;
  const registry = `${baseUrl}/artifactory/api/npm/${repoKey}/`;
  const authKey = registry.replace(/^https?:/, '');
  const token = target.secret ?? '<TOKEN>';
  return [
    {
      title: 'Log in (npm stores a new token in ~/.npmrc)',
      language: 'shell',
      code: `npm login --registry=${registry}`,
    },
    {
      title: 'Or write .npmrc with a token (npm, pnpm and yarn read it)',
      language: 'ini',
      code: `registry=${registry}\n${authKey}:_authToken=${token}`,
    },
    {
      title: 'Only one scope from here',
      language: 'ini',
      code: `@my-scope:registry=${registry}\n${authKey}:_authToken=${token}`,
    },
    { title: 'Publish a package', language: 'shell', code: `npm publish --registry=${registry}` },
    { title: 'Install', language: 'shell', code: `npm install <package> --registry=${registry}` },
    {
      title: 'yarn classic sends the token for unscoped packages only with always-auth',
      language: 'ini',
      code: 'always-auth=true',
    },
  ];
}
