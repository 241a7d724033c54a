import { z } from 'zod';
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as openpgp from 'openpgp';
import semver from 'semver';
import { TERRAFORM_REGISTRY_PATHS } from '@arca/contracts';
import { notFound } from '../../core/errors.js';
import { repoContent, type RepoContent } from '../../features/artifacts/index.js';
import type { RepositoryRow } from '../../db/schema.js';

/** Where the registry protocols live (advertised by `/.well-known/terraform.json`). */
const MODULES_V1 = TERRAFORM_REGISTRY_PATHS.modules;
const PROVIDERS_V1 = TERRAFORM_REGISTRY_PATHS.providers;

const MESSAGE = 'No such module or provider in this registry.';
const PROVIDER_FILE = /^terraform-provider-([a-z0-9-]+)_([^_]+)_([a-z0-9]+)_([a-z0-9]+)\.zip$/;
const MODULE_FILE = /^(.+)\.(zip|tar\.gz|tgz)$/;

/**
 * A registry namespace names its repository: `{repoKey}__{namespace}` (a module's address reads
 * `host/{repoKey}__{namespace}/{name}/{system}`).
 */
async function repositoryOf(content: RepoContent, namespace: string): Promise<{ repo: RepositoryRow; ns: string }> {
  const split = namespace.indexOf('__');
  if (split < 1) throw notFound(MESSAGE);
  const repo = await content.repository(namespace.slice(0, split)).catch(() => undefined);
  if (!repo || repo.package_type !== 'terraform') throw notFound(MESSAGE);
  return { repo, ns: namespace.slice(split + 2) };
}

/** Files below a folder of a repository, by their names (the caller's readable ones). */
async function filesBelow(content: RepoContent, repo: RepositoryRow, folder: string) {
  const items = await content.below(repo.key, folder);
  return items.filter((item) => item.folder === 0);
}

const byVersion = (a: string, b: string) => semver.compare(a, b);

/**
 * Terraform's module and provider registry protocols (`modules.v1`, `providers.v1`) over the
 * terraform repositories: modules kept at `modules/{namespace}/{name}/{system}/{version}.zip`,
 * providers at `providers/{namespace}/{type}/{version}/terraform-provider-{type}_{version}_{os}_{arch}.zip`;
 * each provider version's SHA256SUMS is made here and signed with the repository's signing key.
 */
export async function terraformRoutes(app: FastifyInstance): Promise<void> {
  const namespace = z.string().describe('the repository key and the namespace, `{repoKey}__{namespace}`');
  const moduleParams = z.object({ namespace, name: z.string(), system: z.string() });
  const providerParams = z.object({ namespace, type: z.string() });
  const versionParams = providerParams.extend({ version: z.string() });
  const modules = `${MODULES_V1}:namespace/:name/:system`;
  app.get<{ Params: { namespace: string; name: string; system: string } }>(
    `${modules}/versions`,
    { config: { access: 'public' }, schema: { summary: "A module's versions (`modules.v1`)", params: moduleParams } },
    async (request) => {
      const content = repoContent(request);
      const { repo, ns } = await repositoryOf(content, request.params.namespace);
      const { name, system } = request.params;
      const versions = (await filesBelow(content, repo, `modules/${ns}/${name}/${system}`))
        .map((item) => MODULE_FILE.exec(item.name)?.[1])
        .filter((v): v is string => v !== undefined && semver.valid(v) !== null)
        .sort(byVersion);
      if (!versions.length) throw notFound(MESSAGE);
      return { modules: [{ versions: versions.map((version) => ({ version })) }] };
    },
  );
  app.get<{ Params: { namespace: string; name: string; system: string; version: string } }>(
    `${modules}/:version/download`,
    {
      config: { access: 'public' },
      schema: {
        summary: "Where a module version's archive is (`X-Terraform-Get`)",
        params: moduleParams.extend({ version: z.string() }),
      },
    },
    async (request, reply) => {
      const content = repoContent(request);
      const { repo, ns } = await repositoryOf(content, request.params.namespace);
      const { name, system, version } = request.params;
      const folder = `modules/${ns}/${name}/${system}`;
      const file = (await filesBelow(content, repo, folder)).find(
        (item) => MODULE_FILE.exec(item.name)?.[1] === version,
      );
      if (!file) throw notFound(MESSAGE);
      // Terraform fetches the archive itself, with the same credentials, from this address
      return reply.status(204).header('x-terraform-get', `/artifactory/${repo.key}/${folder}/${file.name}`).send();
    },
  );

  const providers = `${PROVIDERS_V1}:namespace/:type`;
  /** A provider's packages: version → its platforms' files. */
  const packagesOf = async (content: RepoContent, repo: RepositoryRow, ns: string, type: string) => {
    const found = new Map<string, { os: string; arch: string; name: string; path: string; sha256: string }[]>();
    for (const item of await filesBelow(content, repo, `providers/${ns}/${type}`)) {
      const match = PROVIDER_FILE.exec(item.name);
      if (!match || match[1] !== type || !semver.valid(match[2]!)) continue;
      const list = found.get(match[2]!) ?? [];
      list.push({
        os: match[3]!,
        arch: match[4]!,
        name: item.name,
        path: item.path,
        sha256: item.sha256 ?? '',
      });
      found.set(match[2]!, list);
    }
    return found;
  };

  app.get<{ Params: { namespace: string; type: string } }>(
    `${providers}/versions`,
    {
      config: { access: 'public' },
      schema: { summary: "A provider's versions with their platforms (`providers.v1`)", params: providerParams },
    },
    async (request) => {
      const content = repoContent(request);
      const { repo, ns } = await repositoryOf(content, request.params.namespace);
      const found = await packagesOf(content, repo, ns, request.params.type);
      if (!found.size) throw notFound(MESSAGE);
      return {
        versions: [...found.keys()].sort(byVersion).map((version) => ({
          version,
          protocols: ['5.0'],
          platforms: found.get(version)!.map(({ os, arch }) => ({ os, arch })),
        })),
      };
    },
  );

  const sums = (files: { name: string; sha256: string }[]) =>
    Buffer.from(
      files
        .map((f) => `${f.sha256}  ${f.name}\n`)
        .sort()
        .join(''),
    );

  app.get<{ Params: { namespace: string; type: string; version: string; os: string; arch: string } }>(
    `${providers}/:version/download/:os/:arch`,
    {
      config: { access: 'public' },
      schema: {
        summary: "A provider package of a platform: its file, SHA256SUMS and the repository's signing key",
        params: versionParams.extend({ os: z.string(), arch: z.string() }),
      },
    },
    async (request) => {
      const content = repoContent(request);
      const { repo, ns } = await repositoryOf(content, request.params.namespace);
      const { type, version, os, arch } = request.params;
      const files = (await packagesOf(content, repo, ns, type)).get(version) ?? [];
      const file = files.find((f) => f.os === os && f.arch === arch);
      if (!file) throw notFound(MESSAGE);
      const signer = await content.signer(repo);
      const base = `${PROVIDERS_V1}${request.params.namespace}/${type}/${version}`;
      return {
        protocols: ['5.0'],
        os,
        arch,
        filename: file.name,
        download_url: `/artifactory/${repo.key}/${file.path}`,
        shasums_url: `${base}/SHA256SUMS`,
        shasums_signature_url: `${base}/SHA256SUMS.sig`,
        shasum: file.sha256,
        signing_keys: {
          gpg_public_keys: [
            { key_id: signer.key.fingerprint.slice(-16).toUpperCase(), ascii_armor: signer.key.publicKey },
          ],
        },
      };
    },
  );

  const sumsFile = async (
    request: { params: { namespace: string; type: string; version: string } } & Parameters<typeof repoContent>[0],
    reply: FastifyReply,
    signed: boolean,
  ) => {
    const content = repoContent(request);
    const { repo, ns } = await repositoryOf(content, request.params.namespace);
    const files = (await packagesOf(content, repo, ns, request.params.type)).get(request.params.version);
    if (!files?.length) throw notFound(MESSAGE);
    const body = sums(files);
    if (!signed) return reply.type('text/plain').send(body);
    // Terraform reads a binary detached signature
    const armored = await (await content.signer(repo)).detached(body);
    const signature = await openpgp.readSignature({ armoredSignature: armored });
    return reply.type('application/octet-stream').send(Buffer.from(signature.write() as Uint8Array));
  };
  app.get<{ Params: { namespace: string; type: string; version: string } }>(
    `${providers}/:version/SHA256SUMS`,
    { config: { access: 'public' }, schema: { summary: "A provider version's SHA256SUMS", params: versionParams } },
    (request, reply) => sumsFile(request, reply, false),
  );
  app.get<{ Params: { namespace: string; type: string; version: string } }>(
    `${providers}/:version/SHA256SUMS.sig`,
    {
      config: { access: 'public' },
      schema: { summary: 'The detached signature of SHA256SUMS, binary', params: versionParams },
    },
    (request, reply) => sumsFile(request, reply, true),
  );
}
