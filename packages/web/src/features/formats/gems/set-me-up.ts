import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** gem and Bundler: the source with credentials, the API key gem push sends, and a Gemfile. */
export function gemsSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const api = `${baseUrl}/artifactory/api/gems/${repoKey}`;
  const withCredentials = `${api}/`.replace(/^(https?:\/\/)/, `$1${encodeURIComponent(user)}:${secret}@`);
  return [
    { title: 'Gem source', language: 'shell', code: `gem sources --clear-all --add ${withCredentials}` },
    { title: 'Install', language: 'shell', code: `gem install <gem> --source ${withCredentials}` },
    {
      title: 'API key',
      language: 'yaml',
      code: `# ~/.gem/credentials (mode 0600)\n---\n:arca: Bearer ${secret}`,
    },
    { title: 'Push', language: 'shell', code: `gem push my-gem-1.0.0.gem --host ${api} --key arca` },
    { title: 'Gemfile', language: 'ruby', code: `source "${api}/"\n\ngem "<gem>"` },
    {
      title: 'Bundler credentials',
      language: 'shell',
      code: `bundle config set --global ${api}/ ${user}:${secret}`,
    },
  ];
}
