import type { FastifyInstance } from 'fastify';
import type { StoredEvent } from '@arca/contracts';
import { OutboxConsumer } from '../../core/outbox.js';
import { systemContent, type RepoContent } from '../artifacts/index.js';
import { deleteUnder, upsertVersion, type CatalogueVersion } from './packages.store.js';

/** The outbox consumer's name. */
const CONSUMER = 'catalogue';
/** Most files indexed below one copied, moved or restored folder. */
const MAX_FILES_PER_FOLDER = 10_000;

/**
 * Keeps the package catalogue in step with repository content: it consumes the outbox (so that
 * no deploy, delete, move, copy or restore is missed, whichever route made it, and a restart
 * resumes), and has each file read by its repository's format indexer.
 */
export class CatalogueIndexer {
  private readonly content: RepoContent;
  readonly consumer: OutboxConsumer;
  private readonly listeners: ((version: CatalogueVersion) => void)[] = [];

  constructor(private readonly app: FastifyInstance) {
    this.content = systemContent(app);
    this.consumer = new OutboxConsumer(app, CONSUMER, (event) => this.apply(event), { from: 'beginning' });
  }

  /** Tells `listener` of each version this process catalogues, once it is recorded. */
  onIndexed(listener: (version: CatalogueVersion) => void): void {
    this.listeners.push(listener);
  }

  /** Indexes what is waiting in the outbox; answers how many events it took. */
  drain(): Promise<number> {
    return this.consumer.drain();
  }

  private async apply(event: StoredEvent): Promise<void> {
    const { db } = this.app;
    switch (event.type) {
      case 'artifact.deployed':
        return this.indexFile(event.repoKey, event.path);
      case 'artifact.deleted':
        return deleteUnder(db, event.repoKey, event.path);
      case 'artifact.moved':
        await deleteUnder(db, event.repoKey, event.path);
        return this.indexTree(event.payload.to.repoKey, event.payload.to.path);
      case 'artifact.copied':
        return this.indexTree(event.payload.to.repoKey, event.payload.to.path);
      case 'artifact.restored':
        return this.indexTree(event.repoKey, event.path);
      case 'repository.deleted':
        return deleteUnder(db, event.repoKey, '');
      default:
        return undefined;
    }
  }

  private async indexTree(repoKey: string, path: string): Promise<void> {
    const item = await this.content.stored(repoKey, path).catch(() => undefined);
    if (!item) return;
    if (item.folder !== 1) return this.indexFile(repoKey, path);
    const files = (await this.content.below(repoKey, path)).filter((i) => i.folder !== 1);
    for (const file of files.slice(0, MAX_FILES_PER_FOLDER)) await this.indexFile(repoKey, file.path);
  }

  private async indexFile(repoKey: string, path: string): Promise<void> {
    const repo = await this.content.repository(repoKey).catch(() => undefined);
    const format = repo && this.app.formatRegistry.for(repo.package_type);
    if (!repo || !format?.index) return;
    const file = await this.content.stored(repoKey, path);
    if (!file || file.folder === 1) return;
    const record = await format.index(file, this.content);
    if (!record) return;
    const id = await upsertVersion(this.app.db, {
      package_type: repo.package_type,
      name: record.name,
      lowercase_name: record.name.toLowerCase(),
      version: record.version,
      repo_key: repo.key,
      lead_path: file.path,
      description: record.description ?? '',
      licenses: JSON.stringify(record.licenses ?? []),
      tags: JSON.stringify(record.tags ?? []),
      dependencies: JSON.stringify(record.dependencies ?? {}),
      readme: record.readme ?? '',
      fields: JSON.stringify(record.fields),
      size: Number(file.size),
      sha256: file.sha256 ?? '',
      created_at: file.created_at,
      modified_at: file.modified_at,
    });
    const version = { id, package_type: repo.package_type, name: record.name, version: record.version };
    for (const listener of this.listeners)
      listener({
        ...version,
        repo_key: repo.key,
        lead_path: file.path,
        sha256: file.sha256 ?? '',
        licenses: JSON.stringify(record.licenses ?? []),
      });
  }
}

/** Starts the catalogue's indexer with the server (every node runs one; events are leased). */
export function registerCatalogueIndexer(app: FastifyInstance): CatalogueIndexer {
  const indexer = new CatalogueIndexer(app);
  indexer.consumer.register();
  return indexer;
}
