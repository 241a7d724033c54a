import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** Helm: the chart repository added with credentials, installing from it, deploying a packaged chart. */
export function helmSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  const api = `${baseUrl}/artifactory/api/helm/${repoKey}`;
  return [
    {
      title: 'Add the repository',
      language: 'shell',
      code: `helm repo add ${repoKey} ${api} --username ${user} --password ${secret}\nhelm repo update`,
    },
    { title: 'Install', language: 'shell', code: `helm install my-release ${repoKey}/<chart>` },
    {
      title: 'Deploy',
      language: 'shell',
      code: `helm package ./my-chart\ncurl -u ${user}:${secret} -T my-chart-1.0.0.tgz "${api}/my-chart-1.0.0.tgz"`,
    },
  ];
}
