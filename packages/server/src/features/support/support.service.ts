import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  supportBundleParametersSchema,
  type SupportBundle,
  type SupportBundleParameters,
  type SupportBundleService,
} from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import { recordChange, type ChangeActor } from '../../core/changes.js';
import { HttpError, notFound } from '../../core/errors.js';
import { openNodeFile } from '../../core/node-calls.js';
import type { SupportBundleRow } from '../../db/schema.js';
import { writeBundle } from './support.bundle.js';

/** Where a process keeps the bundles it made. */
export const bundlesDir = (app: FastifyInstance) => path.join(app.config.dataDir, 'support-bundles');

function toBundle(row: SupportBundleRow): SupportBundle {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    service: row.service,
    status: row.status as SupportBundle['status'],
    create_date: new Date(Number(row.created_at)).toISOString(),
    created_by: row.created_by,
    node_id: row.node_id,
    size: row.size === null ? null : Number(row.size),
    error: row.error,
    parameters: supportBundleParametersSchema.parse(JSON.parse(row.parameters)),
  };
}

export async function listBundles(app: FastifyInstance): Promise<SupportBundle[]> {
  const rows = await app.db.selectFrom('support_bundles').selectAll().orderBy('created_at', 'desc').execute();
  return rows.map(toBundle);
}

async function findBundle(app: FastifyInstance, id: string): Promise<SupportBundleRow> {
  const row = await app.db.selectFrom('support_bundles').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`There is no support bundle '${id}'.`);
  return row;
}

/**
 * Makes bundles one after another on this process, off the request: a bundle is recorded
 * 'in progress' at once, its zip written in the background, then it is 'success' or 'failure'.
 */
export class BundleMaker {
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly app: FastifyInstance) {}

  async create(
    who: ChangeActor,
    input: { name: string; description: string; service: SupportBundleService; parameters: SupportBundleParameters },
  ): Promise<SupportBundle> {
    const { db } = this.app;
    const now = Date.now();
    const row: SupportBundleRow = {
      id: randomUUID(),
      name: input.name,
      description: input.description,
      service: input.service,
      status: 'in progress',
      parameters: JSON.stringify(input.parameters),
      node_id: this.app.nodeId,
      file: null,
      size: null,
      error: null,
      created_at: now,
      created_by: who.actor,
      finished_at: null,
    };
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('support_bundles').values(row).execute();
      await recordChange(trx, who, {
        audit: {
          category: 'system',
          action: 'support-bundle.created',
          target: row.name,
          after: { id: row.id, service: row.service },
        },
      });
    });
    this.queue = this.queue.then(() => this.make(row));
    return toBundle(row);
  }

  /** Answers when the bundles asked for so far are made (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async make(row: SupportBundleRow): Promise<void> {
    const file = path.join(bundlesDir(this.app), `${row.id}.zip`);
    const parameters = supportBundleParametersSchema.parse(JSON.parse(row.parameters));
    try {
      const size = await writeBundle(
        this.app,
        {
          id: row.id,
          service: row.service as SupportBundleService,
          parameters,
          manifest: {
            id: row.id,
            name: row.name,
            description: row.description,
            service: row.service,
            created: new Date(row.created_at).toISOString(),
            created_by: row.created_by,
            node: row.node_id,
            parameters,
          },
        },
        file,
      );
      await this.app.db
        .updateTable('support_bundles')
        .set({ status: 'success', file: path.relative(this.app.config.dataDir, file), size, finished_at: Date.now() })
        .where('id', '=', row.id)
        .execute();
    } catch (error) {
      this.app.log.error({ err: error, bundle: row.id }, 'a support bundle could not be made');
      await this.app.db
        .updateTable('support_bundles')
        .set({
          status: 'failure',
          error: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
          finished_at: Date.now(),
        })
        .where('id', '=', row.id)
        .execute()
        .catch(() => undefined);
    }
  }

  /** Bundles this node left 'in progress' when it stopped: they will not be finished. */
  async failInterrupted(): Promise<void> {
    await this.app.db
      .updateTable('support_bundles')
      .set({ status: 'failure', error: 'The node stopped while making this bundle.', finished_at: Date.now() })
      .where('node_id', '=', this.app.nodeId)
      .where('status', '=', 'in progress')
      .execute();
  }
}

/**
 * The zip of a finished bundle, for download: a file of this data directory, or — for a bundle a
 * node on another machine made — that node's, read through it.
 */
export async function bundleFile(
  app: FastifyInstance,
  id: string,
): Promise<{ row: SupportBundleRow; file: string } | { row: SupportBundleRow; remote: Readable; length?: number }> {
  const row = await findBundle(app, id);
  if (row.status !== 'success' || !row.file) {
    throw new HttpError(
      409,
      row.status === 'in progress'
        ? 'The bundle is still being made.'
        : 'The bundle could not be made; there is nothing to download.',
    );
  }
  const file = path.join(app.config.dataDir, row.file);
  if (fs.existsSync(file)) return { row, file };
  if (row.node_id === app.nodeId) throw new HttpError(404, "The bundle's file is missing from this node's disk.");
  const { body, length } = await openNodeFile(app.db, row.node_id, `/api/internal/v1/support/bundles/${row.id}/file`);
  return { row, remote: body, ...(length === undefined ? {} : { length }) };
}

/** The zip of a bundle this node made, for another node that is asked for it. */
export async function ownBundleFile(app: FastifyInstance, id: string): Promise<string> {
  const row = await findBundle(app, id);
  const file = row.status === 'success' && row.file ? path.join(app.config.dataDir, row.file) : undefined;
  if (!file || row.node_id !== app.nodeId || !fs.existsSync(file))
    throw new HttpError(404, "The bundle's file is not on this node.");
  return file;
}

/** Deletes a bundle and its zip; one being made is refused. */
export async function deleteBundle(app: FastifyInstance, who: ChangeActor, id: string): Promise<void> {
  const row = await findBundle(app, id);
  if (row.status === 'in progress')
    throw new HttpError(409, 'The bundle is still being made; delete it once it is done.');
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('support_bundles').where('id', '=', id).execute();
    await recordChange(trx, who, {
      audit: { category: 'system', action: 'support-bundle.deleted', target: row.name, before: { id } },
    });
  });
  if (row.file) await fs.promises.rm(path.join(app.config.dataDir, row.file), { force: true });
}

/** Removes bundles older than `days`, with their files. Answers how many went. */
export async function pruneBundles(app: FastifyInstance, days: number, now = Date.now()): Promise<number> {
  const old = await app.db
    .selectFrom('support_bundles')
    .selectAll()
    .where('created_at', '<', now - days * 86_400_000)
    .where('status', '!=', 'in progress')
    .execute();
  for (const row of old) {
    await app.db.deleteFrom('support_bundles').where('id', '=', row.id).execute();
    if (row.file) await fs.promises.rm(path.join(app.config.dataDir, row.file), { force: true });
  }
  // zips whose bundle was deleted through another node, which could not reach this one's disk
  const dir = bundlesDir(app);
  const kept = new Set(
    (await app.db.selectFrom('support_bundles').select('id').execute()).map((row) => `${row.id}.zip`),
  );
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    if (name.endsWith('.zip') && !kept.has(name)) await fs.promises.rm(path.join(dir, name), { force: true });
  }
  return old.length;
}
