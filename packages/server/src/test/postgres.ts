import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { migrations } from '../db/migrations/index.js';

const adminUrl = () => process.env.ARCA_TEST_DATABASE_URL!;

function urlOf(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The name of a database migrated to the latest schema, made once per test server and schema (its
 * name carries a digest of the migrations' names and code) and copied for each app instead of replaying
 * every migration. Workers that ask at the same time wait for the one that makes it.
 */
let template: Promise<string> | undefined;
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    // the migrations' names and code: a migration changed while it is being written makes a new template
    const schema = Object.entries(migrations).map(([name, migration]) => `${name}\n${migration.up.toString()}`);
    const digest = createHash('sha256').update(schema.join('\n')).digest('hex').slice(0, 12);
    const name = `arca_template_${digest}`;
    await asAdmin(async (client) => {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
      try {
        const known = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
        if (known.rowCount) return;
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        await client.query(`CREATE DATABASE ${building}`);
        const { db } = openDatabase({ dataDir: '', databaseUrl: urlOf(building) });
        try {
          await migrateToLatest(db);
        } finally {
          await db.destroy();
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
      }
    });
    return name;
  })();
  template.catch(() => (template = undefined));
  return template;
}

/**
 * A fresh database on the test PostgreSQL server (`ARCA_TEST_DATABASE_URL`), and how to drop it:
 * empty, or (`migrated`) with the latest schema, copied from a template.
 */
export async function createPostgresDatabase(
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `arca_test_${randomBytes(6).toString('hex')}`;
  const from = options.migrated ? await migratedTemplate() : undefined;
  await asAdmin(async (client) => {
    // PostgreSQL 15 copies a template through its write-ahead log unless told to copy the files
    // (a checkpoint, then a copy): four times faster for a test database, which no replica follows
    const version = Number(
      (await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")).rows[0]!.v,
    );
    const strategy = from && version >= 150000 ? ' STRATEGY FILE_COPY' : '';
    await client.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}${strategy}` : ''}`);
  });
  return {
    url: urlOf(name),
    drop: () => asAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
