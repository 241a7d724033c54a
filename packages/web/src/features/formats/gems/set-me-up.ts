import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** gem and Bundler: the source with credentials, the API key gem push sends, and a Gemfile. */
export function gemsSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const api = `${baseUrl}/artifactory/api/gems/${repoKey}`;
  const withCredentials = `${api}/`.replace(/^(https?:\/\/)/, `$1${encodeURIComponent(user)}:${secret}@`);
  return [
    { title: 'Use it as the gem source', language: 'shell', code: `gem sources --clear-all --add ${withCredentials}` },
    { title: 'Install a gem', language: 'shell', code: `gem install <gem> --source ${withCredentials}` },
    {
      title: 'Push: the API key in ~/.gem/credentials (mode 0600)',
      language: 'yaml',
      code: `---\n:arca: Bearer ${secret}`,
    },
    { title: 'Push a gem', language: 'shell', code: `gem push my-gem-1.0.0.gem --host ${api} --key arca` },
    { title: 'Bundler: Gemfile', language: 'ruby', code: `source "${api}/"\n\ngem "<gem>"` },
    {
      title: "Bundler: the source's credentials",
      language: 'shell',
      code: `bundle config set --global ${api}/ ${user}:${secret}`,
    },
  ];
}
