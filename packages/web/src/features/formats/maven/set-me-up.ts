import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** Maven (and Gradle): settings.xml with the repository as mirror and deploy target, the POM's distribution management. */
export function mavenSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey, user } = target;
  const url = `${baseUrl}/artifactory/${repoKey}`;
  const secret = secretOf(target);
  return [
    {
      title: 'Resolve and deploy: ~/.m2/settings.xml',
      language: 'xml',
      code: `<settings>
  <servers>
    <server>
      <id>${repoKey}</id>
      <username>${user}</username>
      <password>${secret}</password>
    </server>
  </servers>
  <mirrors>
    <mirror>
      <id>${repoKey}</id>
      <name>${repoKey}</name>
      <url>${url}</url>
      <mirrorOf>*</mirrorOf>
    </mirror>
  </mirrors>
</settings>`,
    },
    {
      title: 'Deploy with mvn deploy: pom.xml',
      language: 'xml',
      code: `<distributionManagement>
  <repository>
    <id>${repoKey}</id>
    <url>${url}</url>
  </repository>
  <snapshotRepository>
    <id>${repoKey}</id>
    <url>${url}</url>
  </snapshotRepository>
</distributionManagement>`,
    },
    {
      title: 'Deploy a single file',
      language: 'shell',
      code: `mvn deploy:deploy-file -Dfile=<file.jar> -DgroupId=<group> -DartifactId=<artifact> -Dversion=<version> -Dpackaging=jar -DrepositoryId=${repoKey} -Durl=${url}`,
    },
    {
      title: 'Gradle: build.gradle',
      language: 'groovy',
      code: `repositories {
    maven {
        url "${url}"
        credentials {
            username = "${user}"
            password = "${secret}"
        }
    }
}`,
    },
  ];
}
