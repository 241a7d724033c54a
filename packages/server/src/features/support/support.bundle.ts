import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import yazl from 'yazl';
import { LOG_FILE_PATTERN, type SupportBundleParameters, type SupportBundleService } from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import { BUILD } from '../../core/build-info.js';
import { logsDirOf } from '../../core/logger.js';
import { callNode, fetchNodeFile } from '../../core/node-calls.js';
import { isOnline, nodeRows } from '../../core/nodes.js';
import { knownSecrets } from '../../core/sealing.js';
import type { Db } from '../../db/database.js';

/** What stands in for a secret in a bundle. */
export const MASK = '**********';

/** Words of a name that make its value a secret, whatever the case or separator (`AWS_SECRET_ACCESS_KEY`, `apiKey`). */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pass',
  'passphrase',
  'pwd',
  'secret',
  'secrets',
  'token',
  'tokens',
  'credential',
  'credentials',
  'private',
  'apikey',
  'sealed',
  'authorization',
  'cookie',
]);
/** Names that look like secret names but hold none (a repository's or webhook's own key, the shell's folders). */
const NOT_SECRET = new Set([
  'key',
  'repo_key',
  'webhook_key',
  'project_key',
  'projectkey',
  'repokey',
  'key_pair',
  'pwd',
  'oldpwd',
]);

/** The words of a name: `AWS_SECRET_ACCESS_KEY` → aws secret access key; `managerPassword` → manager password. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** Whether a field, setting or environment variable of this name holds a secret, compared case-insensitively. */
export function isSecretName(name: string): boolean {
  if (!name || NOT_SECRET.has(name.toLowerCase())) return false;
  const words = wordsOf(name);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  if (/api_?key/i.test(name)) return true;
  // a name ending in "key" (`signingKey`, `ACCESS_KEY`, `private.key`), a URL that may carry a password
  return words.at(-1) === 'key' || (words.at(-1) === 'url' && words.includes('database'));
}

/** Fields holding HTTP headers: every value masked, whatever its name (a receiver's API key, say). */
const HEADERS_NAME = /headers$/i;

/** A value with every secret field masked, looking inside JSON held in strings too. */
export function redact(value: unknown, name = ''): unknown {
  if (isSecretName(name) && value !== null && value !== '' && value !== false) return MASK;
  if (HEADERS_NAME.test(name)) return maskHeaders(value);
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  if (typeof value === 'string' && /^[[{]/.test(value.trim())) {
    try {
      return redact(JSON.parse(value) as unknown);
    } catch {
      return value;
    }
  }
  return value;
}

/** Headers as `[{name, value}]` or `{name: value}`: names kept, values masked. */
function maskHeaders(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((h) => (h && typeof h === 'object' && 'value' in h ? { ...(h as object), value: MASK } : MASK));
  }
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).map((k) => [k, MASK]));
  return value === '' || value === null || value === undefined ? value : MASK;
}

/** The values `redact` masks in `value`: what must not appear anywhere else in the bundle either. */
function maskedValues(value: unknown, name = '', into: string[] = []): string[] {
  if (typeof value === 'string' && (isSecretName(name) || HEADERS_NAME.test(name))) {
    into.push(value);
  } else if (Array.isArray(value)) {
    for (const v of value) maskedValues(v, HEADERS_NAME.test(name) ? 'headers' : '', into);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      maskedValues(v, HEADERS_NAME.test(name) && k !== 'name' ? 'headers' : k, into);
    }
  } else if (typeof value === 'string' && /^[[{]/.test(value.trim())) {
    try {
      maskedValues(JSON.parse(value) as unknown, name, into);
    } catch {
      // not JSON
    }
  }
  return into;
}

/** Secret values of this process's environment (passwords, tokens, database URLs with credentials). */
function environmentSecrets(): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(process.env)) {
    if (!value || !isSecretName(name)) continue;
    secrets.push(value);
    // a URL's password on its own, as it may appear elsewhere
    try {
      const url = new URL(value);
      if (url.password) secrets.push(decodeURIComponent(url.password));
    } catch {
      // not a URL
    }
  }
  return secrets;
}

/**
 * Every value known to be a secret: the environment's, those the features declare (sealed
 * passwords, tokens, webhook header values), and the values of secret fields in the settings and
 * repository configurations. At least six characters: shorter ones would mask ordinary words.
 */
async function secretValues(db: Db): Promise<string[]> {
  const settings = await db.selectFrom('settings').select(['key', 'value']).execute();
  const fromSettings = settings.flatMap((s) => maskedValues(s.value, isSecretName(s.key) ? s.key : ''));
  const fromRepositories = maskedValues(await db.selectFrom('repositories').selectAll().execute());
  const all = [...environmentSecrets(), ...(await knownSecrets(db)), ...fromSettings, ...fromRepositories];
  // the longest first: a secret that contains another is masked whole
  return [...new Set(all.filter((s) => s.length >= 6))].sort((a, b) => b.length - a.length);
}

/** Text with every known secret value replaced by the mask: the last safeguard before the zip. */
function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
    // as it appears inside JSON text
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && out.includes(escaped)) out = out.split(escaped).join(MASK);
  }
  return out;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** The deployment's configuration, every secret masked. */
async function configuration(db: Db, service: SupportBundleService): Promise<Record<string, unknown>> {
  const settings = await db.selectFrom('settings').select(['key', 'value', 'updated_at']).orderBy('key').execute();
  const shownSettings = Object.fromEntries(settings.map((s) => [s.key, isSecretName(s.key) ? MASK : redact(s.value)]));
  const security = {
    settings: Object.fromEntries(Object.entries(shownSettings).filter(([k]) => /^(security|auth|access)/.test(k))),
    groups: await db.selectFrom('groups').selectAll().orderBy('name').execute(),
    permissions: await db.selectFrom('permission_targets').selectAll().orderBy('name').execute(),
    users: await db
      .selectFrom('users')
      .select([
        'name',
        'email',
        'admin',
        'realm',
        'disable_ui_access',
        'created_at',
        'last_login_at',
        'mfa_enrolled_at',
      ])
      .orderBy('name')
      .execute(),
  };
  if (service === 'access') return { 'security.json': redact(security) };
  return {
    'repositories.json': redact(await db.selectFrom('repositories').selectAll().orderBy('key').execute()),
    'settings.json': shownSettings,
    'security.json': redact(security),
    'projects.json': redact(await db.selectFrom('projects').selectAll().execute()),
    'webhooks.json': redact(await db.selectFrom('webhooks').selectAll().orderBy('key').execute()),
  };
}

/** Versions, machine, database and store figures, and the nodes. */
async function systemInformation(app: FastifyInstance): Promise<unknown> {
  const { db } = app;
  let disk: unknown = null;
  try {
    const stat = await fs.promises.statfs(app.config.dataDir);
    disk = { path: app.config.dataDir, totalBytes: stat.blocks * stat.bsize, freeBytes: stat.bavail * stat.bsize };
  } catch {
    // not every platform answers
  }
  const databaseBytes =
    app.dbEngine === 'postgres'
      ? Number(
          (await sql<{ size: string }>`select pg_database_size(current_database()) as size`.execute(db)).rows[0]
            ?.size ?? 0,
        )
      : (fs.statSync(path.join(app.config.dataDir, 'arca.db'), { throwIfNoEntry: false })?.size ?? null);
  const count = async (table: 'binaries' | 'items' | 'repositories' | 'users' | 'builds') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  const binaryBytes = await db
    .selectFrom('binaries')
    .select((eb) => eb.fn.sum<number | string>('size').as('bytes'))
    .executeTakeFirst();
  const logicalBytes = await db
    .selectFrom('repository_usage')
    .select((eb) => eb.fn.sum<number | string>('size').as('bytes'))
    .executeTakeFirst();
  const nodes = await nodeRows(db);
  return {
    arca: { version: BUILD.version, revision: BUILD.revision, node: app.nodeId },
    runtime: { node: process.version, v8: process.versions.v8, uptimeSeconds: Math.round(process.uptime()) },
    os: { platform: os.platform(), release: os.release(), arch: os.arch(), hostname: os.hostname() },
    cpu: { model: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), loadAverage: os.loadavg() },
    memory: { totalBytes: os.totalmem(), freeBytes: os.freemem(), process: process.memoryUsage() },
    disk,
    database: { engine: app.dbEngine, bytes: databaseBytes },
    store: {
      ...(await app.binaries.figures()),
      binaries: await count('binaries'),
      binaryBytes: Number(binaryBytes?.bytes ?? 0),
      artifacts: await count('items'),
      artifactBytes: Number(logicalBytes?.bytes ?? 0),
      repositories: await count('repositories'),
      users: await count('users'),
      builds: await count('builds'),
    },
    nodes: nodes.map((n) => ({
      node_id: n.node_id,
      host: n.host,
      version: n.version,
      online: isOnline(n),
      started_at: new Date(n.started_at).toISOString(),
      last_heartbeat: new Date(n.last_heartbeat).toISOString(),
    })),
  };
}

/** Whether a log file belongs in the period: written to on or after its start, begun on or before its end. */
function inPeriod(name: string, modifiedMs: number, period: { start?: string; end?: string }): boolean {
  if (period.start && new Date(modifiedMs).toISOString().slice(0, 10) < period.start) return false;
  const rotatedDay = /\.(\d{4}-\d{2}-\d{2})\.\d+\.log$/.exec(name)?.[1];
  // a rotated file holds lines up to its day
  if (period.end && rotatedDay && rotatedDay > period.end) return false;
  return true;
}

export interface BundleRequest {
  id: string;
  service: SupportBundleService;
  parameters: SupportBundleParameters;
  manifest: Record<string, unknown>;
}

/**
 * Writes a support bundle's zip to `file`: a manifest, the period's logs of every node (read here
 * when their folder is here, else through the node), the configuration and system information
 * with every secret masked, and `thread_dump.count` Node.js diagnostic reports taken
 * `interval` seconds apart. Answers the zip's size. A failure leaves no file behind.
 */
export async function writeBundle(app: FastifyInstance, request: BundleRequest, file: string): Promise<number> {
  const { parameters, service } = request;
  const secrets = await secretValues(app.db);
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(scrub(text, secrets)), name);
  const sections: string[] = [];

  if (parameters.logs.include) {
    sections.push('logs');
    const period = { start: parameters.logs.start_date, end: parameters.logs.end_date };
    const products = service === 'access' ? ['jfac-'] : ['jfrt-', 'jfac-'];
    const wanted = (name: string) => LOG_FILE_PATTERN.test(name) && products.some((p) => name.startsWith(p));
    const nodes = await nodeRows(app.db);
    const ids = new Set([app.nodeId, ...nodes.map((n) => n.node_id)]);
    // this process's last lines (the request log gathers them for a moment) are in its files first
    await app.flushLogs();
    for (const nodeId of ids) {
      const dir = logsDirOf(app.config.dataDir, nodeId);
      if (fs.existsSync(dir)) {
        for (const name of fs.readdirSync(dir).filter(wanted).sort()) {
          const stat = fs.statSync(path.join(dir, name));
          if (!inPeriod(name, stat.mtimeMs, period)) continue;
          add(`logs/${nodeId}/${name}`, await fs.promises.readFile(path.join(dir, name), 'utf8'));
        }
        continue;
      }
      const node = nodes.find((n) => n.node_id === nodeId);
      if (!node || !isOnline(node) || !node.address) {
        add(
          `logs/${nodeId}/NOT-INCLUDED.txt`,
          `The logs of node '${nodeId}' are on its own machine, and it is not running.\n`,
        );
        continue;
      }
      try {
        for (const product of service === 'access' ? ['jfac'] : ['jfrt', 'jfac']) {
          const listed = await callNode(app.db, nodeId, `/api/internal/v1/logs/config/${product}`);
          for (const name of ((listed.body as { logs?: string[] }).logs ?? []).filter(wanted)) {
            const fetched = await fetchNodeFile(app.db, nodeId, `/api/internal/v1/logs/file/${name}`);
            if (!inPeriod(name, fetched.modifiedMs, period)) continue;
            add(`logs/${nodeId}/${name}`, fetched.text);
          }
        }
      } catch (error) {
        add(
          `logs/${nodeId}/NOT-INCLUDED.txt`,
          `The logs of node '${nodeId}' could not be read through it: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  }
  if (parameters.configuration) {
    sections.push('configuration');
    for (const [name, content] of Object.entries(await configuration(app.db, service))) {
      add(`configuration/${name}`, json(content));
    }
  }
  if (parameters.system) {
    sections.push('system');
    add('system/system.json', json(await systemInformation(app)));
  }
  const { count, interval } = parameters.thread_dump;
  if (count > 0) {
    sections.push('thread-dumps');
    for (let i = 1; i <= count; i++) {
      if (i > 1 && interval > 0) await sleep(interval * 1000);
      const report = process.report.getReport() as unknown as Record<string, unknown>;
      // the process environment only when asked for, and then with every secret masked
      if (parameters.thread_dump.environment) report.environmentVariables = redact(report.environmentVariables ?? {});
      else delete report.environmentVariables;
      add(`thread-dumps/${app.nodeId}-${i}.json`, json(report));
    }
  }
  add('manifest.json', json({ ...request.manifest, sections }));
  zip.end();

  const partial = `${file}.part`;
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const out = fs.createWriteStream(partial);
      out.on('error', reject);
      zip.outputStream.on('error', reject);
      out.on('close', () => resolve());
      zip.outputStream.pipe(out);
    });
    await fs.promises.rename(partial, file);
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  return (await fs.promises.stat(file)).size;
}
