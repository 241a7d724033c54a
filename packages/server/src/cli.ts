import path from 'node:path';
import { parseArgs } from 'node:util';
import { LICENSE_BUCKET_MAX_SIZE, LICENSE_EDITIONS, type LicenseEdition } from '@arca/contracts';
import { loadConfig, type Config } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { restore } from './features/backup/backup.restore.js';
import { backup } from './features/backup/backup.service.js';
import { migrateStore } from './features/backup/store-migrate.js';
import { exportIssuerPublicKey } from './features/license/license-keys.js';
import { LicenseService } from './features/license/license.service.js';
import { issueBucket } from './features/license-buckets/license-buckets.document.js';
import type { BinaryStore } from './storage/binary-store.js';
import { openBinaryStore, openColdStore } from './storage/store-factory.js';

const USAGE = `Usage:
  arca license issue --edition EDITION --licensee NAME [--days N]
      Prints a licence key signed with this deployment's issuer key (<data>/keys).
      Editions: ${LICENSE_EDITIONS.filter((e) => e !== 'NONE').join(', ')}.
      Without --days the licence never expires.
  arca license bucket issue --edition EDITION --count N --licensee NAME --days N
      Prints a licence bucket file (JSON) of N licences, signed with this deployment's issuer key,
      to add to a management deployment (Licence Buckets → Add New Bucket).
  arca license issuer-key
      Prints this deployment's issuer public key: list it in ARCA_LICENSE_ISSUER_KEYS (separated
      by ';') on the deployments that are to trust the licences and buckets it signs.
  arca backup --to DIR
      Backs the deployment up while it runs: the database as of one moment, the binaries it
      references (only those DIR does not hold yet: a second backup to DIR is incremental), the
      keys and a manifest with counts and SHA-256s.
  arca store migrate --to s3|file [--switch]
      Copies every binary into the other store (the object store named by ARCA_S3_*, or the file
      store under ARCA_DATA_DIR), each checked against its SHA-256; it may run while Arca serves and
      resumes where it stopped. With --switch, once every node is stopped, a last pass copies what
      was deployed meanwhile and the other store becomes this deployment's: start Arca with
      ARCA_STORE set to it.
  arca restore --from DIR
      Restores a backup onto an empty data directory (ARCA_DATA_DIR) — and, for a PostgreSQL
      backup, an empty database (ARCA_DATABASE_URL) — after checking every file against its SHA-256.`;

/** Progress on one line that rewrites itself, when a terminal shows it. */
function progressLine(out: (line: string) => void) {
  let last = '';
  return (step: string, done: number, total: number) => {
    const line = `${step}: ${done}/${total}`;
    if (line === last) return;
    last = line;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}   `);
    else if (done === total) out(line);
  };
}

/** Command-line administration of a deployment. Returns the process exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [area, command, ...rest] = argv;
  if (area === 'backup' || area === 'restore') return runBackup(area, argv.slice(1), out);
  if (area === 'store' && command === 'migrate') return runStoreMigration(rest, out);
  if (area === 'license' && command === 'bucket' && rest[0] === 'issue') return runBucketIssue(rest.slice(1), out);
  if (area === 'license' && command === 'issuer-key') {
    return withLicenseService((service) => {
      out(exportIssuerPublicKey(service.ownKey));
      return 0;
    });
  }
  if (area !== 'license' || command !== 'issue') {
    out(USAGE);
    return area === undefined || area === '--help' ? 0 : 2;
  }
  const { values } = parseArgs({
    args: rest,
    options: { edition: { type: 'string' }, licensee: { type: 'string' }, days: { type: 'string' } },
  });
  const edition = values.edition as LicenseEdition | undefined;
  if (!edition || edition === 'NONE' || !LICENSE_EDITIONS.includes(edition) || !values.licensee) {
    out(USAGE);
    return 2;
  }
  const days = values.days === undefined ? null : Number(values.days);
  if (days !== null && (!Number.isInteger(days) || days < 1)) {
    out('--days must be a whole number of at least 1');
    return 2;
  }
  return withLicenseService((service) => {
    out(service.issue({ edition, licensee: values.licensee!, days }));
    return 0;
  });
}

/** Runs `work` with this deployment's licence service (its issuer key from the database). */
async function withLicenseService(work: (service: LicenseService) => number): Promise<number> {
  const config = loadConfig();
  const { db } = openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrateToLatest(db);
    return work(await LicenseService.open(db, config.dataDir, []));
  } finally {
    await db.destroy();
  }
}

async function runBucketIssue(args: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      edition: { type: 'string' },
      licensee: { type: 'string' },
      days: { type: 'string' },
      count: { type: 'string' },
    },
  });
  const edition = values.edition as LicenseEdition | undefined;
  const count = Number(values.count);
  const days = Number(values.days);
  if (!edition || edition === 'NONE' || !LICENSE_EDITIONS.includes(edition) || !values.licensee) {
    out(USAGE);
    return 2;
  }
  if (!Number.isInteger(count) || count < 1 || count > LICENSE_BUCKET_MAX_SIZE) {
    out(`--count must be a whole number from 1 to ${LICENSE_BUCKET_MAX_SIZE}`);
    return 2;
  }
  if (!Number.isInteger(days) || days < 1) {
    out('--days must be a whole number of at least 1');
    return 2;
  }
  return withLicenseService((service) => {
    out(issueBucket(service, { edition, licensee: values.licensee!, count, days }).trimEnd());
    return 0;
  });
}

async function runBackup(what: 'backup' | 'restore', args: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' }, from: { type: 'string' } } });
  const config = loadConfig();
  const started = Date.now();
  const store = await openBinaryStore(config, `${what}-${process.pid}`);
  const cold = await openColdStore(config, `${what}-${process.pid}`);
  try {
    return await backupOrRestore(what, values, config, { store, cold }, started, out);
  } finally {
    store.close?.();
    cold.close?.();
  }
}

async function backupOrRestore(
  what: 'backup' | 'restore',
  values: { to?: string | undefined; from?: string | undefined },
  config: Config,
  stores: { store: BinaryStore; cold: BinaryStore },
  started: number,
  out: (line: string) => void,
): Promise<number> {
  if (what === 'backup') {
    if (!values.to) {
      out(USAGE);
      return 2;
    }
    const manifest = await backup(
      { dataDir: config.dataDir, databaseUrl: config.databaseUrl, target: path.resolve(values.to), ...stores },
      progressLine(out),
    );
    if (manifest.database.note) out(manifest.database.note);
    out(
      `Backed up ${manifest.engine} by ${manifest.database.method} (${Object.values(manifest.database.tables).reduce((a, b) => a + b, 0)} rows) and ${manifest.binaries.count} binaries (${manifest.binaries.copied} copied, ${manifest.binaries.reused} already there) to ${values.to} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  }
  if (!values.from) {
    out(USAGE);
    return 2;
  }
  const manifest = await restore(
    {
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      from: path.resolve(values.from),
      open: () => openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }).db,
      migrate: migrateToLatest,
      ...stores,
    },
    progressLine(out),
  );
  out(
    `Restored the backup of ${manifest.created} (${manifest.binaries.count} binaries) into ${config.dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s; start Arca to use it`,
  );
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

async function runStoreMigration(args: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseArgs({ args, options: { to: { type: 'string' }, switch: { type: 'boolean' } } });
  if (values.to !== 's3' && values.to !== 'file') {
    out(USAGE);
    return 2;
  }
  const started = Date.now();
  const from = values.to === 's3' ? 'file' : 's3';
  const configOf = (store: string) => loadConfig({ ...process.env, ARCA_STORE: store });
  const { db } = openDatabase({ dataDir: configOf(from).dataDir, databaseUrl: configOf(from).databaseUrl });
  const source = await openBinaryStore(configOf(from), `migrate-${process.pid}`);
  try {
    const target = await openBinaryStore(configOf(values.to), `migrate-${process.pid}`);
    try {
      const result = await migrateStore(
        { db, from: source, to: target, switchOver: values.switch === true },
        progressLine(out),
      );
      out(
        `Copied ${result.copied} binaries (${(result.bytes / 1e6).toFixed(1)} MB) to the ${values.to} store in ${((Date.now() - started) / 1000).toFixed(1)} s; ${result.present} were there already, ${result.gone} were removed meanwhile.`,
      );
      out(
        values.switch
          ? `This deployment's binaries are now in the ${values.to} store: start Arca with ARCA_STORE=${values.to}.`
          : `Run it again with --switch once every node is stopped, to copy what was deployed meanwhile and move to the ${values.to} store.`,
      );
      return 0;
    } finally {
      target.close?.();
    }
  } finally {
    source.close?.();
    await db.destroy();
  }
}
