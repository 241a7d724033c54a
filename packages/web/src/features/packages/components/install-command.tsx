import { INSTALL_COMMAND_TYPES } from '@arca/contracts';
import { Typography } from 'antd';

/** The spec names some types by their aliases in its install-command list: a repository's `debian` is its `deb`. */
const SPEC_NAME: Record<string, string> = { debian: 'deb', gems: 'rubygems' };

/** The command that installs a version, for the types the spec gives one; undefined for the others. */
export function installCommand(packageType: string, name: string, version: string): string | undefined {
  const type = SPEC_NAME[packageType] ?? packageType;
  if (!(INSTALL_COMMAND_TYPES as readonly string[]).includes(type)) return undefined;
  switch (type) {
    case 'npm':
      return `npm install ${name}@${version}`;
    case 'pypi':
      return `pip install ${name}==${version}`;
    case 'docker':
      return `docker pull ${name}:${version}`;
    case 'go':
      return `go get ${name}@${version}`;
    case 'nuget':
      return `nuget install ${name} -Version ${version}`;
    case 'cargo':
      return `cargo add ${name}@${version}`;
    case 'rubygems':
      return `gem install ${name} -v ${version}`;
    case 'deb':
      return `apt-get install ${name}=${version}`;
    case 'rpm':
      return `yum install ${name}-${version}`;
    default:
      return undefined;
  }
}

/**
 * The name a Docker client pulls an image by: the registry's host (the one this console is
 * reached at), the repository, the image — `arca.example.com/docker-local/team/app`.
 */
export function dockerImageName(repoKey: string | undefined, image: string): string {
  return repoKey ? `${window.location.host}/${repoKey}/${image}` : image;
}

/** The install command in a copyable block. */
export function InstallCommand({ type, name, version }: { type: string; name: string; version: string }) {
  const command = installCommand(type, name, version);
  if (!command) return null;
  return (
    <Typography.Paragraph
      copyable={{ text: command, tooltips: ['Copy the command', 'Copied'] }}
      code
      style={{ margin: 0, fontSize: 14 }}
      aria-label="Install command"
    >
      {command}
    </Typography.Paragraph>
  );
}
