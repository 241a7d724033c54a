import type { FastifyInstance } from 'fastify';
import { policyFetch } from '../../core/outbound-policy.js';
import { importAdvisories, recordsOf } from './scanning.import.js';
import { listSources, updateSource, type AdvisorySourceRow } from './scanning.sources.store.js';

/** The job that fetches the advisory sources that are due. */
export const ADVISORY_SOURCES_JOB = 'advisory-sources';

/** The largest export a source may answer (an ecosystem's whole OSV export is tens of megabytes). */
const MAX_BYTES = 1024 * 1024 * 1024;

/** How a fetch of a source went. */
export interface SourceRun {
  outcome: 'imported' | 'unchanged' | 'failed';
  message: string;
  counts?: { added: number; updated: number; unchanged: number; records: number };
}

/**
 * Fetches a source's URL through the outbound policy (allowed hosts, the default proxy, trusted
 * authorities) — asking with the ETag and Last-Modified of the last import, so that an unchanged
 * export is neither downloaded nor imported again — and imports what it answers as an upload
 * would be (a zip of OSV records, a record or a list). The outcome is kept with the source; a
 * failure imports nothing.
 */
export async function runSource(app: FastifyInstance, source: AdvisorySourceRow, now = Date.now()): Promise<SourceRun> {
  let run: SourceRun;
  const validators: { etag?: string; last_modified?: string } = {};
  try {
    const response = await policyFetch(app.db, source.url, {
      headers: {
        accept: 'application/zip, application/json',
        ...(source.etag ? { 'if-none-match': source.etag } : {}),
        ...(source.last_modified ? { 'if-modified-since': source.last_modified } : {}),
      },
      timeouts: { connectMs: 10_000, firstByteMs: 60_000, idleMs: 60_000 },
    });
    if (response.status === 304) {
      run = { outcome: 'unchanged', message: 'Not modified since the last import.' };
    } else if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`${source.url} answered HTTP ${response.status}.`);
    } else {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body ?? []) {
        size += (chunk as Uint8Array).byteLength;
        if (size > MAX_BYTES) throw new Error(`${source.url} answered more than 1 GiB.`);
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      const counts = await importAdvisories(
        app,
        await recordsOf(Buffer.concat(chunks), `what ${source.url} answered`),
        source.name,
      );
      run = {
        outcome: 'imported',
        message: `${counts.records} ${counts.records === 1 ? 'record' : 'records'}: ${counts.added} added, ${counts.updated} updated, ${counts.unchanged} unchanged.`,
        counts,
      };
      validators.etag = response.headers.get('etag') ?? '';
      validators.last_modified = response.headers.get('last-modified') ?? '';
    }
  } catch (error) {
    run = { outcome: 'failed', message: (error as Error).message };
  }
  await updateSource(app.db, source.name, {
    last_run_at: now,
    last_outcome: run.outcome,
    last_message: run.message,
    ...validators,
  });
  if (run.outcome === 'failed') app.log.warn({ source: source.name, reason: run.message }, 'advisory source failed');
  return run;
}

/** Whether a source is due: enabled, and never fetched or last fetched its interval ago. */
export const isDue = (source: AdvisorySourceRow, now: number) =>
  source.enabled === 1 &&
  (source.last_run_at === null || now - Number(source.last_run_at) >= source.interval_hours * 3_600_000);

/** Fetches every source that is due, one after the other. */
export async function runDueSources(app: FastifyInstance, now = Date.now()): Promise<void> {
  for (const source of await listSources(app.db)) if (isDue(source, now)) await runSource(app, source, now);
}
