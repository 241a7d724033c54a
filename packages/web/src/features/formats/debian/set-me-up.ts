import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** apt: the signing key in a keyring of its own, the source naming it, the credentials in auth.conf, and deploying a package. */
export function debianSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const url = `${baseUrl}/artifactory/${repoKey}`;
  const machine = url.startsWith('https://') ? url.slice('https://'.length) : url;
  return [
    {
      title: 'Signing key',
      language: 'shell',
      code: `curl -fsSL ${baseUrl}/artifactory/api/gpg/key/public/${repoKey} | sudo gpg --dearmor -o /usr/share/keyrings/arca-${repoKey}.gpg`,
    },
    {
      title: 'Source',
      language: 'text',
      code: `# /etc/apt/sources.list.d/arca.list\ndeb [signed-by=/usr/share/keyrings/arca-${repoKey}.gpg] ${url} <DISTRIBUTION> <COMPONENT>`,
    },
    {
      title: 'Credentials',
      language: 'text',
      code: `# /etc/apt/auth.conf.d/arca.conf\nmachine ${machine}\nlogin ${user}\npassword ${secret}`,
    },
    { title: 'Install', language: 'shell', code: 'sudo apt-get update && sudo apt-get install <package>' },
    {
      title: 'Deploy',
      language: 'shell',
      code: `curl -u ${user}:${secret} -T my-tool_1.0.0_amd64.deb "${url}/pool/main/m/my-tool/my-tool_1.0.0_amd64.deb;deb.distribution=<DISTRIBUTION>;deb.component=<COMPONENT>;deb.architecture=amd64"`,
    },
  ];
}
