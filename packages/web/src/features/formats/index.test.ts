import { describe, expect, it } from 'vitest';
import { setMeUp } from '.';

const target = { baseUrl: 'https://arca.example.com', repoKey: 'libs-local', user: 'ann' };

describe('Set Me Up by format', () => {
  it('gives a generic repository working curl snippets with the real address', () => {
    const { served, snippets } = setMeUp('generic', target);
    expect(served).toBe(true);
    expect(snippets.map((s) => s.title)).toContain('Deploy a file');
    expect(snippets[0]!.code).toBe(
      'curl -u ann:<PASSWORD> -T ./file.zip "https://arca.example.com/artifactory/libs-local/path/to/file.zip"',
    );
  });

  it('fills a generated token in where the password goes', () => {
    const { snippets } = setMeUp('generic', { ...target, secret: 'eyJ.token' });
    expect(snippets.every((s) => !s.code.includes('<PASSWORD>'))).toBe(true);
    expect(snippets[0]!.code).toContain('-u ann:eyJ.token ');
  });

  it('gives an npm repository its registry address, a token in .npmrc and the publish command', () => {
    const { served, snippets } = setMeUp('npm', { ...target, repoKey: 'npm', secret: 'arca_token' });
    expect(served).toBe(true);
    const npmrc = snippets.find((s) => s.title.startsWith('Or write .npmrc'))!;
    expect(npmrc.code).toBe(
      'registry=https://arca.example.com/artifactory/api/npm/npm/\n//arca.example.com/artifactory/api/npm/npm/:_authToken=arca_token',
    );
    expect(snippets.map((s) => s.code)).toContain(
      'npm publish --registry=https://arca.example.com/artifactory/api/npm/npm/',
    );
    expect(setMeUp('npm', target).snippets.some((s) => s.code.includes('_authToken=<TOKEN>'))).toBe(true);
  });

  it('gives a PyPI repository pip and twine settings with the real address and the token', () => {
    const { served, snippets } = setMeUp('pypi', { ...target, repoKey: 'pypi', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toBe(
      'pip install <package> --index-url https://ann:arca_token@arca.example.com/artifactory/api/pypi/pypi/simple',
    );
    expect(snippets.find((s) => s.title.includes('.pypirc'))!.code).toContain(
      'repository = https://arca.example.com/artifactory/api/pypi/pypi\nusername = ann\npassword = arca_token',
    );
  });

  it('gives a Maven repository settings.xml with the real address and the token as the server password', () => {
    const { served, snippets } = setMeUp('maven', { ...target, repoKey: 'maven', secret: 'arca_token' });
    expect(served).toBe(true);
    const settings = snippets[0]!.code;
    expect(settings).toContain('<id>maven</id>\n      <username>ann</username>\n      <password>arca_token</password>');
    expect(settings).toContain('<url>https://arca.example.com/artifactory/maven</url>');
    expect(snippets.some((s) => s.code.startsWith('mvn deploy:deploy-file'))).toBe(true);
  });

  it('gives a Docker repository the login, push and pull commands with the registry host and repository key', () => {
    const { served, snippets } = setMeUp('docker', { ...target, repoKey: 'docker-local', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toBe("echo 'arca_token' | docker login arca.example.com -u ann --password-stdin");
    expect(snippets.find((s) => s.title === 'Pull')!.code).toBe(
      'docker pull arca.example.com/docker-local/<image>:<tag>',
    );
  });

  it('gives a Go repository its GOPROXY with credentials, the checksum database setting and publishing', () => {
    const { served, snippets } = setMeUp('go', { ...target, repoKey: 'go', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toContain(
      'go env -w GOPROXY=https://ann:arca_token@arca.example.com/artifactory/api/go/go,direct',
    );
    expect(snippets[0]!.code).toContain('go env -w GONOSUMDB=');
    expect(snippets.find((s) => s.title === 'Or ~/.netrc')!.code).toBe(
      'machine arca.example.com\nlogin ann\npassword arca_token',
    );
    expect(snippets.some((s) => s.code.includes('/artifactory/api/go/go/<module>/@v/v1.0.0.$ext'))).toBe(true);
  });

  it('gives a Cargo repository its sparse index, the token as Artifactory takes it, and publishing', () => {
    const { served, snippets } = setMeUp('cargo', { ...target, repoKey: 'cargo', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toContain('index = "sparse+https://arca.example.com/artifactory/api/cargo/cargo/index/"');
    expect(snippets[1]!.code).toBe('# ~/.cargo/credentials.toml\n[registries.arca]\ntoken = "Bearer arca_token"');
    expect(snippets.map((s) => s.code)).toContain('cargo publish --registry arca');
  });

  it('gives a Helm repository helm repo add with its address and credentials', () => {
    const { served, snippets } = setMeUp('helm', { ...target, repoKey: 'helm', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toContain(
      'helm repo add helm https://arca.example.com/artifactory/api/helm/helm --username ann --password arca_token',
    );
  });

  it('gives a Debian repository the signing key, the signed-by source and its credentials', () => {
    const { served, snippets } = setMeUp('debian', { ...target, repoKey: 'debian', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toContain('https://arca.example.com/artifactory/api/gpg/key/public/debian');
    expect(snippets[1]!.code).toBe(
      '# /etc/apt/sources.list.d/arca.list\ndeb [signed-by=/usr/share/keyrings/arca-debian.gpg] https://arca.example.com/artifactory/debian <DISTRIBUTION> <COMPONENT>',
    );
    expect(snippets[2]!.code).toBe(
      '# /etc/apt/auth.conf.d/arca.conf\nmachine arca.example.com/artifactory/debian\nlogin ann\npassword arca_token',
    );
  });

  it('gives an RPM repository a .repo file with both signature checks and the signing key', () => {
    const { served, snippets } = setMeUp('rpm', { ...target, repoKey: 'rpm', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toContain(
      'baseurl=https://arca.example.com/artifactory/rpm\nusername=ann\npassword=arca_token',
    );
    expect(snippets[0]!.code).toContain(
      'gpgcheck=1\nrepo_gpgcheck=1\ngpgkey=https://arca.example.com/artifactory/api/gpg/key/public/rpm',
    );
  });

  it('gives a RubyGems repository its source, the API key for gem push and a Gemfile', () => {
    const { served, snippets } = setMeUp('gems', { ...target, repoKey: 'gems', secret: 'arca_token' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toBe(
      'gem sources --clear-all --add https://ann:arca_token@arca.example.com/artifactory/api/gems/gems/',
    );
    expect(snippets.find((s) => s.title === 'API key')!.code).toBe(
      '# ~/.gem/credentials (mode 0600)\n---\n:arca: Bearer arca_token',
    );
    expect(snippets.find((s) => s.title === 'Gemfile')!.code).toContain(
      'source "https://arca.example.com/artifactory/api/gems/gems/"',
    );
  });

  it('promises no client protocol the server does not speak yet', () => {
    const { served, snippets } = setMeUp('nuget', target);
    expect(served).toBe(false);
    expect(snippets.some((s) => s.code.includes('nuget '))).toBe(false);
    expect(snippets.map((s) => s.title)).toEqual(setMeUp('generic', target).snippets.map((s) => s.title));
  });

  it('shows how to publish build info for files deployed one by one, with the real addresses', () => {
    const titles = (type: string) => setMeUp(type, target).snippets.map((s) => s.title);
    expect(titles('generic')).toContain('Publish build info with JFrog CLI');
    expect(titles('maven')).toContain('Publish build info with curl');
    expect(titles('npm')).not.toContain('Publish build info with curl');
    const curl = setMeUp('generic', { ...target, secret: 'tok' }).snippets.find(
      (s) => s.title === 'Publish build info with curl',
    )!;
    expect(curl.code).toContain(
      '"https://arca.example.com/artifactory/libs-local/org/acme/app-1.0.jar;build.name=my-build;build.number=1"',
    );
    expect(curl.code).toContain(
      '-u ann:tok -X PUT -H "Content-Type: application/json" -d @build-info.json "https://arca.example.com/artifactory/api/build"',
    );
    const doc = setMeUp('generic', target).snippets.find((s) => s.title === 'build-info.json')!;
    expect(JSON.parse(doc.code)).toMatchObject({ name: 'my-build', number: '1' });
  });

  it('gives a terraform repository terraform login, registry addresses and the deploy paths', () => {
    const { served, snippets } = setMeUp('terraform', { ...target, repoKey: 'tf-local' });
    expect(served).toBe(true);
    expect(snippets[0]!.code).toBe('terraform login arca.example.com');
    expect(snippets.find((s) => s.title === 'Use a module')!.code).toContain(
      'source  = "arca.example.com/tf-local__<namespace>/<name>/<system>"',
    );
    expect(snippets.find((s) => s.title === 'Deploy a module')!.code).toContain(
      '"https://arca.example.com/artifactory/tf-local/modules/<namespace>/vpc/<system>/1.0.0.zip"',
    );
  });
});
