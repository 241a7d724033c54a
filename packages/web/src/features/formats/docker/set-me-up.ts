import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** Docker, podman and skopeo: log in to the registry, then tag, push and pull as `{host}/{repoKey}/{image}`. */
export function dockerSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const host = baseUrl.replace(/^https?:\/\//, '');
  const insecure = baseUrl.startsWith('http://');
  const image = `${host}/${repoKey}/<image>:<tag>`;
  return [
    {
      title: 'Log in',
      language: 'shell',
      code: `echo '${secretOf(target)}' | docker login ${host} -u ${user} --password-stdin`,
    },
    ...(insecure
      ? [
          {
            title: 'Plain HTTP: allow the registry in /etc/docker/daemon.json',
            language: 'json',
            code: JSON.stringify({ 'insecure-registries': [host] }, null, 2),
          },
        ]
      : []),
    { title: 'Push', language: 'shell', code: `docker tag <local-image> ${image}\ndocker push ${image}` },
    { title: 'Pull', language: 'shell', code: `docker pull ${image}` },
    {
      title: 'Copy with skopeo',
      language: 'shell',
      code: `skopeo copy --dest-creds ${user}:${secretOf(target)}${insecure ? ' --dest-tls-verify=false' : ''} docker-archive:image.tar docker://${image}`,
    },
  ];
}
