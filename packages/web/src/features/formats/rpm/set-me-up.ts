import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** dnf and yum: the repository file with both signature checks on, the key that signs the repodata, and deploying a package. */
export function rpmSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const url = `${baseUrl}/artifactory/${repoKey}`;
  return [
    {
      title: 'Repository file',
      language: 'ini',
      code: [
        `# /etc/yum.repos.d/${repoKey}.repo`,
        `[${repoKey}]`,
        `name=${repoKey}`,
        `baseurl=${url}`,
        `username=${user}`,
        `password=${secret}`,
        'enabled=1',
        'gpgcheck=1',
        'repo_gpgcheck=1',
        `gpgkey=${baseUrl}/artifactory/api/gpg/key/public/${repoKey}`,
      ].join('\n'),
    },
    { title: 'Install', language: 'shell', code: 'sudo dnf install <package>' },
    {
      title: 'Deploy',
      language: 'shell',
      code: `curl -u ${user}:${secret} -T my-tool-1.0.0-1.x86_64.rpm "${url}/Packages/my-tool-1.0.0-1.x86_64.rpm"`,
    },
  ];
}
