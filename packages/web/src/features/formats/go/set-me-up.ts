import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** The go command: GOPROXY with credentials, the checksum database told to leave private modules alone, and publishing. */
export function goSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const api = `${baseUrl}/artifactory/api/go/${repoKey}`;
  const secret = secretOf(target);
  const withCredentials = api.replace(/^(https?:\/\/)/, `$1${encodeURIComponent(user)}:${secret}@`);
  const host = baseUrl.replace(/^https?:\/\//, '').replace(/[:/].*$/, '');
  return [
    {
      title: 'GOPROXY',
      language: 'shell',
      code: `# the go command sends credentials over HTTPS only\ngo env -w GOPROXY=${withCredentials},direct\n# private modules are not in the public checksum database: list their path prefixes\ngo env -w GONOSUMDB=example.com/your-org`,
    },
    {
      title: 'Or ~/.netrc',
      language: 'text',
      code: `machine ${host}\nlogin ${user}\npassword ${secret}`,
    },
    { title: 'Add a module', language: 'shell', code: 'go get <module>@<version>' },
    {
      title: 'Publish (JFrog CLI)',
      language: 'shell',
      code: `jf go-publish v1.0.0 --url ${baseUrl}/artifactory --user ${user} --password ${secret} --repo ${repoKey}`,
    },
    {
      title: 'Publish (curl)',
      language: 'shell',
      code: [
        '# the zip as golang.org/x/mod/zip makes it; the module path case-encoded',
        'for ext in zip mod info; do',
        `  curl -u ${user}:${secret} -T v1.0.0.$ext "${api}/<module>/@v/v1.0.0.$ext"`,
        'done',
      ].join('\n'),
    },
  ];
}
