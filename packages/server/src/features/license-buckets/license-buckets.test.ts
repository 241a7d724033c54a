import { createHmac, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  LICENSE_BUCKET_MESSAGES,
  LICENSE_MESSAGES,
  formatMessage,
  type LicenseBucketDocument,
  type LicenseDocument,
} from '@arca/contracts';
import { runCli } from '../../cli.js';
import { ADMIN_BASIC, ENGINES, XHR, messages, startListeningApp as listening } from '../../test/harness.js';
import { exportIssuerPublicKey, issuerKeyId, signDocument, signLicense, type IssuerKey } from '../license/index.js';
import { bucketFile } from './license-buckets.document.js';

type Instance = Awaited<ReturnType<typeof listening>>;

const API = '/ui/api/v1/mc/api/v1/buckets';
const admin = { ...ADMIN_BASIC, ...XHR };
const DAY = 86_400_000;

/** An issuer as a vendor would hold it: an Ed25519 key pair outside every deployment. */
function vendorKey(): IssuerKey {
  const { privateKey } = generateKeyPairSync('ed25519');
  const publicKey = createPublicKey(privateKey);
  return { id: issuerKeyId(publicKey), publicKey, privateKey };
}

/** A bucket file of `count` licences signed by `key`. */
function vendorBucket(
  key: IssuerKey,
  options: { count: number; licensee?: string; issued?: number; days?: number; tamper?: boolean },
) {
  const issued = options.issued ?? Date.now();
  const expires = new Date(issued + (options.days ?? 365) * DAY).toISOString();
  const licensee = options.licensee ?? 'Acme Corp';
  const licence = (): string => {
    const document: LicenseDocument = {
      version: 1,
      id: randomUUID(),
      edition: 'ENTERPRISE_PLUS',
      licensee,
      issuedAt: new Date(issued).toISOString(),
      expiresAt: expires,
      issuer: key.id,
    };
    return signLicense(document, key);
  };
  const document: LicenseBucketDocument = {
    version: 1,
    id: randomUUID(),
    edition: 'ENTERPRISE_PLUS',
    licensee,
    issuedAt: new Date(issued).toISOString(),
    expiresAt: expires,
    issuer: key.id,
    parent: null,
    licenses: Array.from({ length: options.count }, licence),
  };
  let signed = signDocument('ARCA-BUCKET-1', document, key);
  if (options.tamper) {
    // one more licence written into the signed part afterwards
    const forged = { ...document, licenses: [...document.licenses, licence()] };
    const [prefix, , signature] = signed.split('.');
    signed = `${prefix}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
  }
  return { document, key: signed, file: bucketFile(document, signed) };
}

/** A file server: `/plain.json` for anyone, `/signed.json` only with its signature in the query. */
async function bucketServer(files: Record<string, string>) {
  const secret = 'presign-secret';
  const sign = (path: string) => createHmac('sha256', secret).update(path).digest('hex');
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = files[url.pathname];
    const signed = url.pathname.startsWith('/signed');
    if (!body || (signed && url.searchParams.get('X-Signature') !== sign(url.pathname))) {
      res.writeHead(body ? 403 : 404).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    signedUrl: (path: string) => `${base}${path}?X-Expires=3600&X-Signature=${sign(path)}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(ENGINES)('licence buckets on %s', (engine) => {
  const vendor = vendorKey();
  const stranger = vendorKey();
  let mc: Instance;
  let first: Instance;
  let second: Instance;
  let files: Awaited<ReturnType<typeof bucketServer>>;
  const deployments: Record<string, string> = {};
  let secondOpen = true;

  const add = (payload: object) => mc.app.inject({ method: 'POST', url: API, headers: admin, payload });
  const list = async () => (await mc.app.inject({ method: 'GET', url: API, headers: admin })).json();
  const status = async (id: string) =>
    (await mc.app.inject({ method: 'GET', url: `${API}/${id}/status`, headers: admin })).json();
  const attach = (id: string, targets: object[]) =>
    mc.app.inject({ method: 'POST', url: `${API}/${id}/attach`, headers: admin, payload: { targets } });
  const licensesOf = async (at: Instance) =>
    (await at.app.inject({ method: 'GET', url: '/artifactory/api/system/licenses', headers: ADMIN_BASIC })).json();

  beforeAll(async () => {
    // the management deployment trusts the vendor and a second issuer its deployments do not know
    const trust = `${exportIssuerPublicKey(vendor)};${exportIssuerPublicKey(stranger)}`;
    [mc, first, second] = await Promise.all([
      listening(engine, { ARCA_LICENSE_ISSUER_KEYS: trust }),
      listening(engine, { ARCA_LICENSE_ISSUER_KEYS: exportIssuerPublicKey(vendor) }),
      listening(engine, { ARCA_LICENSE_ISSUER_KEYS: exportIssuerPublicKey(vendor) }),
    ]);
    for (const [name, at] of [
      ['first', first],
      ['second', second],
    ] as const) {
      const pairing = await at.app.inject({
        method: 'POST',
        url: '/access/api/v1/pairing/token',
        headers: ADMIN_BASIC,
      });
      const registered = await mc.app.inject({
        method: 'POST',
        url: '/ui/api/v1/mc/api/v1/deployments',
        headers: admin,
        payload: { name, url: at.url, pairing_token: pairing.json().token },
      });
      expect(registered.statusCode).toBe(201);
      deployments[name] = registered.json().id;
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mc?.close(), first?.close(), secondOpen ? second?.close() : undefined, files?.close()]);
  });

  it('refuses every bad bucket with the spec message, and stores nothing', async () => {
    const good = vendorBucket(vendor, { count: 2 });
    const refused = async (payload: object, status = 400) => {
      const res = await add(payload);
      expect(res.statusCode).toBe(status);
      return messages(res)[0];
    };
    expect(await refused({ name: 'team a', key: good.key })).toBe(`name: ${LICENSE_BUCKET_MESSAGES.nameRule}`);
    expect(await refused({ name: '', key: good.key })).toBe(`name: ${LICENSE_BUCKET_MESSAGES.mandatory}`);
    expect(await refused({ name: 'b' })).toBe(`body: ${LICENSE_BUCKET_MESSAGES.oneSource}`);
    expect(await refused({ name: 'b', key: good.key, url: 'http://127.0.0.1/x.json' })).toBe(
      `body: ${LICENSE_BUCKET_MESSAGES.oneSource}`,
    );
    expect(await refused({ name: 'b', file: { name: 'bucket.txt', content: good.file } })).toBe(
      LICENSE_BUCKET_MESSAGES.fileExtension,
    );
    expect(await refused({ name: 'b', file: { name: 'bucket.json', content: 'x'.repeat(13 * 1024 * 1024) } })).toBe(
      LICENSE_BUCKET_MESSAGES.fileSize,
    );
    // forged (a licence written in after signing), unknown issuer, garbage, expired
    expect(await refused({ name: 'b', key: vendorBucket(vendor, { count: 2, tamper: true }).key })).toBe(
      LICENSE_BUCKET_MESSAGES.invalid,
    );
    expect(await refused({ name: 'b', key: vendorBucket(vendorKey(), { count: 2 }).key })).toBe(
      LICENSE_BUCKET_MESSAGES.invalid,
    );
    expect(await refused({ name: 'b', file: { name: 'b.json', content: '{"not":"a bucket"}' } })).toBe(
      LICENSE_BUCKET_MESSAGES.invalid,
    );
    expect(
      await refused({ name: 'b', key: vendorBucket(vendor, { count: 2, issued: Date.now() - 3 * DAY, days: 1 }).key }),
    ).toBe(LICENSE_BUCKET_MESSAGES.expired);
    expect(await list()).toEqual([]);
    const counts = await mc.app.db.selectFrom('license_bucket_licenses').select('id').execute();
    expect(counts).toHaveLength(0);
  });

  it('adds buckets from a file, a URL, a signed URL and a key; the same bucket twice is refused', async () => {
    const fromFile = vendorBucket(vendor, { count: 6 });
    const fromUrl = vendorBucket(vendor, { count: 2 });
    const fromSigned = vendorBucket(vendor, { count: 3 });
    const fromKey = vendorBucket(stranger, { count: 2, licensee: 'Other Corp' });
    files = await bucketServer({ '/plain.json': fromUrl.file, '/signed.json': fromSigned.file });

    const added = await add({ name: 'fleet-2027', file: { name: 'fleet.json', content: fromFile.file } });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      id: fromFile.document.id,
      name: 'fleet-2027',
      license_type: 'ENTERPRISE_PLUS',
      customer: 'Acme Corp',
      size: 6,
      used: 0,
      available: 6,
      source: 'file',
      parent: null,
    });
    expect((await add({ name: 'by-url', url: files.url('/plain.json') })).json()).toMatchObject({
      size: 2,
      source: 'url',
    });
    // without its signature the signed address answers 403: the bucket is not added
    const unsigned = await add({ name: 'by-signed-url', signed_url: files.url('/signed.json') });
    expect(messages(unsigned)[0]).toBe(`${LICENSE_BUCKET_MESSAGES.unreachable} (HTTP 403)`);
    expect((await add({ name: 'by-signed-url', signed_url: files.signedUrl('/signed.json') })).json()).toMatchObject({
      size: 3,
      source: 'signed_url',
    });
    expect((await add({ name: 'other.corp', key: fromKey.key })).json()).toMatchObject({
      size: 2,
      customer: 'Other Corp',
      source: 'key',
    });

    const again = await add({ name: 'fleet-again', key: fromFile.key });
    expect(again.statusCode).toBe(409);
    expect(messages(again)[0]).toBe(formatMessage(LICENSE_BUCKET_MESSAGES.alreadyAdded, { name: 'fleet-2027' }));
    const sameName = await add({ name: 'fleet-2027', key: vendorBucket(vendor, { count: 1 }).key });
    expect(messages(sameName)[0]).toBe(formatMessage(LICENSE_BUCKET_MESSAGES.nameTaken, { name: 'fleet-2027' }));
    expect((await list()).map((b: { name: string }) => b.name)).toEqual([
      'fleet-2027',
      'by-url',
      'by-signed-url',
      'other.corp',
    ]);

    // the downloaded file is the bucket: added elsewhere it is the same bucket
    const download = await mc.app.inject({
      method: 'GET',
      url: `${API}/${fromFile.document.id}/download`,
      headers: admin,
    });
    expect(download.headers['content-disposition']).toBe('attachment; filename="fleet-2027.json"');
    expect(JSON.parse(download.body)).toMatchObject({
      identifier: fromFile.document.id,
      quantity: 6,
      key: fromFile.key,
    });
  });

  it('issues a bucket from the command line with the deployment issuer key', async () => {
    vi.stubEnv('ARCA_DATA_DIR', mc.dataDir);
    vi.stubEnv('ARCA_LOG_STDOUT', 'false');
    if (mc.config.databaseUrl) vi.stubEnv('ARCA_DATABASE_URL', mc.config.databaseUrl);
    const lines: string[] = [];
    try {
      const code = await runCli(
        ['license', 'bucket', 'issue', '--edition', 'EDGE', '--count', '3', '--licensee', 'Edge Team', '--days', '30'],
        (line) => lines.push(line),
      );
      expect(code).toBe(0);
      const keyLines: string[] = [];
      expect(await runCli(['license', 'issuer-key'], (line) => keyLines.push(line))).toBe(0);
      expect(keyLines[0]).toBe(exportIssuerPublicKey(mc.app.license.ownKey));
      expect(
        await runCli(
          ['license', 'bucket', 'issue', '--edition', 'EDGE', '--count', '0', '--licensee', 'x', '--days', '3'],
          () => undefined,
        ),
      ).toBe(2);
    } finally {
      vi.unstubAllEnvs();
    }
    const file = JSON.parse(lines.join('\n'));
    expect(file).toMatchObject({ license_type: 'EDGE', subject: 'Edge Team', quantity: 3 });
    const added = await add({ name: 'edge-team', file: { name: 'edge.json', content: lines.join('\n') } });
    expect(added.json()).toMatchObject({ size: 3, license_type: 'EDGE', customer: 'Edge Team' });
    expect(Date.parse(added.json().expires) - Date.parse(added.json().issued)).toBe(30 * DAY);
  });

  it('attaches licences to two deployments, which install them; too many or a bad count change nothing', async () => {
    const [bucket] = await list();
    const refused = async (targets: object[]) => {
      const res = await attach(bucket.id, targets);
      expect(res.statusCode).toBe(400);
      return messages(res)[0];
    };
    expect(await refused([{ jpd_id: deployments.first, license_count: 7 }])).toBe(LICENSE_BUCKET_MESSAGES.tooMany);
    expect(
      await refused([
        { jpd_id: deployments.first, license_count: 4 },
        { jpd_id: deployments.second, license_count: 3 },
      ]),
    ).toBe(LICENSE_BUCKET_MESSAGES.tooMany);
    expect(await refused([{ jpd_id: deployments.first, license_count: 1.5 }])).toBe(
      `targets.0.license_count: ${LICENSE_BUCKET_MESSAGES.decimal}`,
    );
    expect(await refused([{ jpd_id: deployments.first, license_count: 5000 }])).toBe(
      `targets.0.license_count: ${LICENSE_BUCKET_MESSAGES.valueTooHigh}`,
    );
    expect(await refused([{ jpd_id: 'nope', license_count: 1 }])).toBe(LICENSE_BUCKET_MESSAGES.unknownDeployment);
    expect((await status(bucket.id)).used).toBe(0);

    const done = await attach(bucket.id, [
      { jpd_id: deployments.first, license_count: 2 },
      { jpd_id: deployments.second, license_count: 1 },
    ]);
    expect(done.statusCode).toBe(200);
    expect(done.json().results).toEqual([
      expect.objectContaining({ name: 'first', success: true, license_count: 2 }),
      expect.objectContaining({
        name: 'second',
        success: true,
        message: 'Assigned 1 license from bucket fleet-2027 to second.',
      }),
    ]);
    // each deployment shows the licence in its footer and licences page, one per node
    const info = (await first.app.inject({ method: 'GET', url: '/ui/api/v1/ui/license', headers: admin })).json();
    expect(info).toMatchObject({ edition: 'ENTERPRISE_PLUS', licensee: 'Acme Corp', status: 'VALID', count: 2 });
    const rest = await licensesOf(first);
    expect(rest.licenses).toHaveLength(2);
    expect(rest.licenses[0]).toMatchObject({ type: 'Enterprise+', licensedTo: 'Acme Corp', expired: false });
    expect(rest.licenses[0].nodeId).toBe(first.app.nodeId);
    expect((await licensesOf(second)).licenses).toHaveLength(1);

    const [after] = await list();
    expect(after).toMatchObject({ used: 3, size: 6, available: 3 });
    const report = await status(bucket.id);
    expect(report.deployments).toEqual([
      expect.objectContaining({ name: 'first', attached: 2, installed: 2, nodes: 1, eligible: true, suggested: 0 }),
      expect.objectContaining({ name: 'second', attached: 1, installed: 1, suggested: 0 }),
    ]);
    expect(report.usage.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), max_used: 3 });
    expect(report.max_used).toBe(3);

    // licences for something outside the fleet: unknown usage
    const acquired = await mc.app.inject({
      method: 'POST',
      url: `${API}/${bucket.id}/acquire`,
      headers: admin,
      payload: { name: 'air-gapped lab', license_count: 1 },
    });
    expect(acquired.json().license_keys).toHaveLength(1);
    expect((await status(bucket.id)).unknown_usage).toEqual([
      { name: 'air-gapped lab', count: 1, reason: 'Acquired for use outside this fleet' },
    ]);
  });

  it('reports a deployment that refuses the licences and gives them back to the bucket', async () => {
    const other = (await list()).find((b: { name: string }) => b.name === 'other.corp');
    const res = await attach(other.id, [{ jpd_id: deployments.second, license_count: 1 }]);
    expect(res.json().results[0]).toMatchObject({
      success: false,
      message: `${LICENSE_BUCKET_MESSAGES.attachFailed} ${LICENSE_MESSAGES.badSignature}`,
    });
    expect((await status(other.id)).used).toBe(0);
    expect((await licensesOf(second)).licenses).toHaveLength(1);
  });

  it('splits a bucket, returns a split bucket to its parent, and deletes a parent with its splits', async () => {
    const [bucket] = await list();
    const split = (id: string, payload: object) =>
      mc.app.inject({ method: 'POST', url: `${API}/${id}/split`, headers: admin, payload });
    expect(messages(await split(bucket.id, { name: 'team-x', quantity: 3 }))[0]).toBe(LICENSE_BUCKET_MESSAGES.tooMany);
    const made = await split(bucket.id, { name: 'team-x', quantity: 2 });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({
      size: 2,
      used: 0,
      parent: { id: bucket.id, name: 'fleet-2027' },
      source: 'split',
    });
    expect(messages(await split(made.json().id, { name: 'team-y', quantity: 1 }))[0]).toBe(
      LICENSE_BUCKET_MESSAGES.splitOfSplit,
    );
    const parent = (await list()).find((b: { id: string }) => b.id === bucket.id);
    expect(parent).toMatchObject({ size: 4, used: 4, available: 0, splits: [{ name: 'team-x', size: 2 }] });

    // the split bucket's key is a bucket of its own, signed by this deployment: it attaches
    const attached = await attach(made.json().id, [{ jpd_id: deployments.second, license_count: 1 }]);
    expect(attached.json().results[0].success).toBe(true);
    expect((await licensesOf(second)).licenses).toHaveLength(2);

    // a split bucket deleted: its licences, the attached one too, go back to the parent
    expect(
      (await mc.app.inject({ method: 'DELETE', url: `${API}/${made.json().id}`, headers: admin })).statusCode,
    ).toBe(204);
    expect((await list()).find((b: { id: string }) => b.id === bucket.id)).toMatchObject({
      size: 6,
      used: 5,
      splits: [],
    });

    // a parent deleted: its licences and its split buckets go
    const again = await split(bucket.id, { name: 'team-z', quantity: 1 });
    expect(again.statusCode).toBe(201);
    expect((await mc.app.inject({ method: 'DELETE', url: `${API}/${bucket.id}`, headers: admin })).statusCode).toBe(
      204,
    );
    const left = (await list()).map((b: { name: string }) => b.name);
    expect(left).not.toContain('fleet-2027');
    expect(left).not.toContain('team-z');
    const orphans = await mc.app.db
      .selectFrom('license_bucket_licenses')
      .select('id')
      .where('bucket_id', 'in', [bucket.id, again.json().id])
      .execute();
    expect(orphans).toHaveLength(0);
    // the deployments keep what was installed on them
    expect((await licensesOf(first)).licenses).toHaveLength(2);
  });

  it('attaches only to Online and Partial deployments', async () => {
    const bucket = (await list()).find((b: { name: string }) => b.name === 'by-url');
    secondOpen = false;
    await second.close();
    const checked = await mc.app.inject({
      method: 'POST',
      url: `/ui/api/v1/mc/api/v1/deployments/${deployments.second}/test`,
      headers: admin,
    });
    expect(checked.json().deployment.status).toBe('OFFLINE');
    const report = await status(bucket.id);
    expect(report.deployments.find((d: { name: string }) => d.name === 'second')).toMatchObject({ eligible: false });
    const res = await attach(bucket.id, [{ jpd_id: deployments.second, license_count: 1 }]);
    expect(messages(res)[0]).toBe(LICENSE_BUCKET_MESSAGES.notEligible);
    expect((await status(bucket.id)).used).toBe(0);
  });
});
