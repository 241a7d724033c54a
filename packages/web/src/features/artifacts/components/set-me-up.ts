/** One snippet of the Set Me Up dialog. */
export interface Snippet {
  title: string;
  language: string;
  code: string;
}

/**
 * What a client needs to use a repository, with the real base URL. `token` fills the password
 * placeholder when the user asks for one (tokens arrive with the access feature).
 */
export function setMeUpSnippets(baseUrl: string, repoKey: string, packageType: string, user: string): Snippet[] {
  const repoUrl = `${baseUrl}/artifactory/${repoKey}`;
  const api = `${baseUrl}/artifactory/api`;
  const host = new URL(baseUrl).host;
  const creds = `${user}:<PASSWORD>`;
  const generic: Snippet[] = [
    { title: 'Deploy a file', language: 'shell', code: `curl -u ${creds} -T ./file.zip "${repoUrl}/path/to/file.zip"` },
    {
      title: 'Deploy with checksum verification',
      language: 'shell',
      code: `curl -u ${creds} -T ./file.zip -H "X-Checksum-Sha256: $(sha256sum file.zip | cut -d' ' -f1)" "${repoUrl}/path/to/file.zip"`,
    },
    { title: 'Download a file', language: 'shell', code: `curl -u ${creds} -O "${repoUrl}/path/to/file.zip"` },
  ];
  switch (packageType) {
    case 'npm':
      return [
        {
          title: '.npmrc',
          language: 'ini',
          code: `registry=${api}/npm/${repoKey}/\n//${host}/artifactory/api/npm/${repoKey}/:_auth=<BASE64 OF user:password>\nalways-auth=true`,
        },
        { title: 'Publish', language: 'shell', code: `npm publish --registry ${api}/npm/${repoKey}/` },
        ...generic,
      ];
    case 'pypi':
      return [
        {
          title: 'pip.conf',
          language: 'ini',
          code: `[global]\nindex-url = ${baseUrl.replace('://', `://${user}:<PASSWORD>@`)}/artifactory/api/pypi/${repoKey}/simple`,
        },
        {
          title: '.pypirc (twine upload -r arca)',
          language: 'ini',
          code: `[distutils]\nindex-servers = arca\n\n[arca]\nrepository = ${api}/pypi/${repoKey}\nusername = ${user}\npassword = <PASSWORD>`,
        },
        ...generic,
      ];
    case 'maven':
    case 'gradle':
      return [
        {
          title: 'settings.xml',
          language: 'xml',
          code: `<settings>\n  <servers>\n    <server>\n      <id>arca</id>\n      <username>${user}</username>\n      <password><PASSWORD></password>\n    </server>\n  </servers>\n  <mirrors>\n    <mirror>\n      <id>arca</id>\n      <mirrorOf>*</mirrorOf>\n      <url>${repoUrl}</url>\n    </mirror>\n  </mirrors>\n</settings>`,
        },
        {
          title: 'pom.xml distributionManagement',
          language: 'xml',
          code: `<distributionManagement>\n  <repository>\n    <id>arca</id>\n    <url>${repoUrl}</url>\n  </repository>\n</distributionManagement>`,
        },
        ...generic,
      ];
    case 'docker':
    case 'oci':
      return [
        { title: 'Log in', language: 'shell', code: `docker login ${host}` },
        {
          title: 'Push an image',
          language: 'shell',
          code: `docker tag my-image ${host}/${repoKey}/my-image:1.0\ndocker push ${host}/${repoKey}/my-image:1.0`,
        },
        { title: 'Pull an image', language: 'shell', code: `docker pull ${host}/${repoKey}/my-image:1.0` },
      ];
    case 'helm':
      return [
        {
          title: 'Add the repository',
          language: 'shell',
          code: `helm repo add ${repoKey} ${api}/helm/${repoKey} --username ${user} --password <PASSWORD>`,
        },
        ...generic,
      ];
    default:
      return generic;
  }
}
