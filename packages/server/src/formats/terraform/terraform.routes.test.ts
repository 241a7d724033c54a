import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_BASIC, ENGINES, createRepo, put, startTestApp, type TestApp } from '../../test/harness.js';
import { zipOf } from '../../test/zip.js';

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe.each(ENGINES)('terraform registry on %s', (engine) => {
  let t: TestApp;
  let modulesV1 = '';
  let providersV1 = '';
  const moduleZip = (version: string) => zipOf({ 'main.tf': `variable "cidr" {}\n# ${version}\n` });
  const providerZip = (os: string, arch: string) =>
    zipOf({ [`terraform-provider-acme_v2.1.0`]: `binary for ${os}/${arch}` });
  const get = (url: string, headers: Record<string, string> = ADMIN_BASIC) => t.app.inject({ url, headers });

  beforeAll(async () => {
    t = await startTestApp(engine);
    await createRepo(t.app, 'tf-local', { rclass: 'local', packageType: 'terraform' });
    for (const version of ['1.0.0', '1.2.0']) {
      const res = await put(t.app, `/artifactory/tf-local/modules/acme/vpc/aws/${version}.zip`, moduleZip(version));
      expect(res.statusCode).toBe(201);
    }
    for (const [os, arch] of [
      ['linux', 'amd64'],
      ['darwin', 'arm64'],
    ] as const) {
      const name = `terraform-provider-acme_2.1.0_${os}_${arch}.zip`;
      expect(
        (await put(t.app, `/artifactory/tf-local/providers/acme/acme/2.1.0/${name}`, providerZip(os, arch))).statusCode,
      ).toBe(201);
    }
    // what terraform init reads first: the host's service discovery
    const discovery = (await get('/.well-known/terraform.json', {})).json();
    modulesV1 = discovery['modules.v1'];
    providersV1 = discovery['providers.v1'];
  });
  afterAll(async () => {
    await t?.close();
  });

  it("lists a module's versions and sends Terraform to its archive", async () => {
    const versions = await get(`${modulesV1}tf-local__acme/vpc/aws/versions`);
    expect(versions.json()).toEqual({ modules: [{ versions: [{ version: '1.0.0' }, { version: '1.2.0' }] }] });
    const download = await get(`${modulesV1}tf-local__acme/vpc/aws/1.2.0/download`);
    expect(download.statusCode).toBe(204);
    const archive = download.headers['x-terraform-get'] as string;
    expect(archive).toBe('/artifactory/tf-local/modules/acme/vpc/aws/1.2.0.zip');
    const bytes = (await get(archive)).rawPayload;
    expect(sha256(bytes)).toBe(sha256(moduleZip('1.2.0')));
    expect((await get(`${modulesV1}tf-local__acme/vpc/aws/9.9.9/download`)).statusCode).toBe(404);
    expect((await get(`${modulesV1}no-repo__acme/vpc/aws/versions`)).statusCode).toBe(404);
  });

  it("answers a provider's versions and platforms, and a package Terraform can verify", async () => {
    const versions = (await get(`${providersV1}tf-local__acme/acme/versions`)).json();
    expect(versions.versions).toHaveLength(1);
    expect(versions.versions[0]).toMatchObject({ version: '2.1.0', protocols: ['5.0'] });
    expect(versions.versions[0].platforms).toEqual(
      expect.arrayContaining([
        { os: 'linux', arch: 'amd64' },
        { os: 'darwin', arch: 'arm64' },
      ]),
    );
    const pkg = (await get(`${providersV1}tf-local__acme/acme/2.1.0/download/linux/amd64`)).json();
    expect(pkg).toMatchObject({
      os: 'linux',
      arch: 'amd64',
      filename: 'terraform-provider-acme_2.1.0_linux_amd64.zip',
    });
    // the steps Terraform takes: the package, its checksum in SHA256SUMS, that file's signature by the key given
    const bytes = (await get(pkg.download_url)).rawPayload;
    expect(sha256(bytes)).toBe(pkg.shasum);
    const sums = (await get(pkg.shasums_url)).rawPayload;
    expect(sums.toString()).toContain(`${pkg.shasum}  ${pkg.filename}\n`);
    const signature = (await get(pkg.shasums_signature_url)).rawPayload;
    const [key] = pkg.signing_keys.gpg_public_keys;
    const publicKey = await openpgp.readKey({ armoredKey: key.ascii_armor });
    expect(publicKey.getKeyID().toHex().toUpperCase()).toBe(key.key_id);
    const verified = await openpgp.verify({
      message: await openpgp.createMessage({ binary: sums }),
      signature: await openpgp.readSignature({ binarySignature: signature }),
      verificationKeys: publicKey,
    });
    await expect(verified.signatures[0]!.verified).resolves.toBe(true);
    expect((await get(`${providersV1}tf-local__acme/acme/2.1.0/download/windows/amd64`)).statusCode).toBe(404);
  });

  it('keeps a private registry private: anonymous callers get nothing', async () => {
    const anonymous = await get(`${modulesV1}tf-local__acme/vpc/aws/versions`, {});
    expect([401, 404]).toContain(anonymous.statusCode);
  });
});
