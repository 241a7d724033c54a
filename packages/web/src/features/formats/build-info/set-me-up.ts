import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

const BUILD_INFO = 'Build info';

/** A build-info document as JFrog's CLI writes it, cut to what Arca indexes. */
const DOCUMENT = (repoKey: string) => `{
  "version": "1.0.1",
  "name": "my-build",
  "number": "1",
  "started": "2026-01-01T12:00:00.000+0000",
  "url": "https://ci.example.com/my-build/1",
  "vcs": [{ "url": "https://git.example.com/app.git", "revision": "<COMMIT>", "branch": "main" }],
  "modules": [
    {
      "id": "my-app",
      "artifacts": [{ "type": "jar", "name": "app-1.0.jar", "path": "${repoKey}/org/acme/app-1.0.jar", "sha1": "<SHA-1>", "md5": "<MD5>" }],
      "dependencies": [{ "id": "org.acme:lib:2.1", "type": "jar", "scopes": ["compile"], "sha1": "<SHA-1>" }]
    }
  ]
}`;

/**
 * Publishing build info for files deployed to this repository: with JFrog's CLI (which records
 * the files and the Git revision), or by hand with curl — the files carry `build.name` and
 * `build.number`, the document goes to `PUT /api/build`.
 */
export function buildInfoSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const secret = secretOf(target);
  return [
    {
      title: 'Publish build info with JFrog CLI',
      group: BUILD_INFO,
      language: 'shell',
      code: [
        `jf config add arca --artifactory-url=${baseUrl}/artifactory --user=${user} --password=${secret} --interactive=false`,
        `jf rt upload "target/*.jar" ${repoKey}/org/acme/ --build-name=my-build --build-number=1`,
        'jf rt build-add-git my-build 1',
        'jf rt build-publish my-build 1',
      ].join('\n'),
    },
    {
      title: 'Publish build info with curl',
      group: BUILD_INFO,
      language: 'shell',
      code: [
        `curl -u ${user}:${secret} -T target/app-1.0.jar "${baseUrl}/artifactory/${repoKey}/org/acme/app-1.0.jar;build.name=my-build;build.number=1"`,
        `curl -u ${user}:${secret} -X PUT -H "Content-Type: application/json" -d @build-info.json "${baseUrl}/artifactory/api/build"`,
      ].join('\n'),
    },
    { title: 'build-info.json', language: 'json', code: DOCUMENT(repoKey), group: BUILD_INFO },
  ];
}
