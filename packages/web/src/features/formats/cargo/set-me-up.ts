import { secretOf, type SetMeUpTarget, type Snippet } from '../snippet';

/** cargo: the sparse index as a named registry, the token it sends, publishing and depending on a crate. */
export function cargoSnippets(target: SetMeUpTarget): Snippet[] {
  const { baseUrl, repoKey } = target;
  const secret = secretOf(target);
  return [
    {
      title: 'Name the registry: ~/.cargo/config.toml',
      language: 'toml',
      code: `[registries.arca]\nindex = "sparse+${baseUrl}/artifactory/api/cargo/${repoKey}/index/"\n\n[registry]\nglobal-credential-providers = ["cargo:token"]`,
    },
    {
      title: 'Its token: ~/.cargo/credentials.toml',
      language: 'toml',
      code: `[registries.arca]\ntoken = "Bearer ${secret}"`,
    },
    { title: 'Publish', language: 'shell', code: 'cargo publish --registry arca' },
    {
      title: 'Depend on a crate from it: Cargo.toml',
      language: 'toml',
      code: '[dependencies]\nmy-crate = { version = "1.0", registry = "arca" }',
    },
    {
      title: 'Or fetch crates.io through it (a remote or virtual repository)',
      language: 'toml',
      code: '[source.crates-io]\nreplace-with = "arca"',
    },
  ];
}
