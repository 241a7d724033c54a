import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** cargo: the sparse index as a named registry, the token it sends, publishing and depending on a crate. */
export function cargoSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey } = target;
  const secret = secretOf(target);
  return [
    {
      title: 'config.toml',
      language: 'toml',
      code: `# ~/.cargo/config.toml\n[registries.arca]\nindex = "sparse+${baseUrl}/artifactory/api/cargo/${repoKey}/index/"\n\n[registry]\nglobal-credential-providers = ["cargo:token"]`,
    },
    {
      title: 'credentials.toml',
      language: 'toml',
      code: `# ~/.cargo/credentials.toml\n[registries.arca]\ntoken = "Bearer ${secret}"`,
    },
    { title: 'Publish', language: 'shell', code: 'cargo publish --registry arca' },
    {
      title: 'Cargo.toml',
      language: 'toml',
      code: '[dependencies]\nmy-crate = { version = "1.0", registry = "arca" }',
    },
    {
      title: 'Replace crates.io',
      language: 'toml',
      code: '# for a remote or virtual repository proxying crates.io\n[source.crates-io]\nreplace-with = "arca"',
    },
  ];
}
