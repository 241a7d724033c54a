import type { FastifyInstance } from 'fastify';
import type { StoredEvent } from '@arca/contracts';
import { OutboxConsumer } from '../../core/outbox.js';
import { listArchive } from './artifacts.archive.js';

/** Most entries read from one archive. */
const MAX_ENTRIES = 200_000;
/** Most archives indexed below one copied, moved or restored folder. */
const MAX_ARCHIVES_PER_FOLDER = 10_000;

/**
 * Indexes the classes of deployed archives (the class search) — which archives and which of
 * their entries are classes, the formats say (Maven's: Java classes of jar, war and ear files).
 * It consumes
 * the outbox, so that an archive deployed, copied, moved or restored by any route is read once,
 * after the deploy has answered. A deleted archive's classes go with its item (foreign key).
 */
export class ClassIndexer {
  readonly consumer: OutboxConsumer;

  constructor(private readonly app: FastifyInstance) {
    this.consumer = new OutboxConsumer(app, 'class-index', (event) => this.apply(event), { from: 'beginning' });
  }

  drain(): Promise<number> {
    return this.consumer.drain();
  }

  private apply(event: StoredEvent): Promise<void> {
    switch (event.type) {
      case 'artifact.deployed':
      case 'artifact.restored':
        return this.indexBelow(event.repoKey, event.path);
      case 'artifact.moved':
      case 'artifact.copied':
        return this.indexBelow(event.payload.to.repoKey, event.payload.to.path);
      default:
        return Promise.resolve();
    }
  }

  /** The archive extensions some format reads classes from. */
  private extensions(): string[] {
    return [...new Set(this.app.formatRegistry.all.flatMap((f) => f.classes?.archiveExtensions ?? []))];
  }

  /**
   * The archives at or below a path that have no classes indexed yet. A file (every deploy) is
   * one lookup by its path; only a folder (copied, moved or restored) is searched below.
   */
  private async indexBelow(repoKey: string | undefined, path: string | undefined): Promise<void> {
    const extensions = this.extensions();
    if (!repoKey || path === undefined || !extensions.length) return;
    const { db } = this.app;
    if (path) {
      const item = await db
        .selectFrom('items as i')
        .select(['i.id', 'i.name', 'i.sha256', 'i.size', 'i.folder'])
        .select((eb) =>
          eb
            .exists(eb.selectFrom('archive_classes as c').select('c.item_id').whereRef('c.item_id', '=', 'i.id'))
            .as('indexed'),
        )
        .where('i.repo_key', '=', repoKey)
        .where('i.path', '=', path)
        .executeTakeFirst();
      if (!item) return;
      if (!item.folder) {
        const extension = item.name.slice(item.name.lastIndexOf('.') + 1).toLowerCase();
        if (extensions.includes(extension) && !Number(item.indexed)) await this.index(item);
        return;
      }
    }
    const escaped = path.replace(/[\\%_]/g, (c) => `\\${c}`);
    const archives = await db
      .selectFrom('items as i')
      .select(['i.id', 'i.name', 'i.sha256', 'i.size'])
      .where('i.repo_key', '=', repoKey)
      .where('i.folder', '=', 0)
      .where((eb) => (path ? eb('i.path', 'like', `${escaped}/%`) : eb.lit(true)))
      .where((eb) =>
        eb.or(
          extensions.flatMap((ext) => [
            eb('i.name', 'like', `%.${ext}`),
            eb('i.name', 'like', `%.${ext.toUpperCase()}`),
          ]),
        ),
      )
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('archive_classes as c').select('c.item_id').whereRef('c.item_id', '=', 'i.id'))),
      )
      .limit(MAX_ARCHIVES_PER_FOLDER)
      .execute();
    for (const archive of archives) await this.index(archive);
  }

  private async index(archive: { id: string; name: string; sha256: string | null; size: number | string }) {
    const { id: itemId, name, sha256 } = archive;
    const extension = name.slice(name.lastIndexOf('.') + 1).toLowerCase();
    const hooks = this.app.formatRegistry.all.flatMap((f) =>
      f.classes?.archiveExtensions.includes(extension) ? [f.classes] : [],
    );
    if (!sha256 || !hooks.length || !name.includes('.')) return;
    let entries;
    try {
      entries = await listArchive(this.app.binaries, sha256, Number(archive.size), name, MAX_ENTRIES);
    } catch {
      return; // not a readable zip: nothing to index
    }
    const rows = entries.flatMap((entry) => {
      const found = entry.folder ? undefined : hooks.map((h) => h.classOf(entry.path)).find(Boolean);
      return found ? [{ item_id: itemId, name: found.name, path: entry.path, inner_class: found.inner ? 1 : 0 }] : [];
    });
    await this.app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('archive_classes')
          .values(rows.slice(i, i + 500))
          .onConflict((oc) => oc.doNothing())
          .execute();
    });
  }
}

/** Starts the class indexer with the server (every node runs one; events are leased). */
export function registerClassIndexer(app: FastifyInstance): ClassIndexer {
  const indexer = new ClassIndexer(app);
  indexer.consumer.register();
  return indexer;
}
