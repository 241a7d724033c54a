import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** Generic files with curl: deploy (with checksum verification) and download. */
export function genericSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const repoUrl = `${baseUrl}/artifactory/${repoKey}`;
  const creds = `${user}:${secretOf(target)}`;
  return [
    { title: 'Deploy a file', language: 'shell', code: `curl -u ${creds} -T ./file.zip "${repoUrl}/path/to/file.zip"` },
    {
      title: 'Deploy with checksum verification',
      language: 'shell',
      code: `curl -u ${creds} -T ./file.zip -H "X-Checksum-Sha256: $(sha256sum file.zip | cut -d' ' -f1)" "${repoUrl}/path/to/file.zip"`,
    },
    { title: 'Download a file', language: 'shell', code: `curl -u ${creds} -O "${repoUrl}/path/to/file.zip"` },
    {
      title: 'List a folder',
      language: 'shell',
      code: `curl -u ${creds} "${baseUrl}/artifactory/api/storage/${repoKey}/path/to?list&deep=1"`,
    },
  ];
}
