import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** pip and twine: the simple index with credentials, and an upload target. */
export function pypiSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const api = `${baseUrl}/artifactory/api/pypi/${repoKey}`;
  const secret = secretOf(target);
  const withCredentials = api.replace(/^(https?:\/\/)/, `$1${encodeURIComponent(user)}:${secret}@`);
  return [
    {
      title: 'Install with pip',
      language: 'shell',
      code: `pip install <package> --index-url ${withCredentials}/simple`,
    },
    {
      title: 'Or for every pip command: pip.conf (~/.config/pip/pip.conf)',
      language: 'ini',
      code: `[global]\nindex-url = ${withCredentials}/simple`,
    },
    {
      title: 'Upload with twine: ~/.pypirc',
      language: 'ini',
      code: `[distutils]\nindex-servers = arca\n\n[arca]\nrepository = ${api}\nusername = ${user}\npassword = ${secret}`,
    },
    { title: 'Upload', language: 'shell', code: 'twine upload --repository arca dist/*' },
  ];
}
