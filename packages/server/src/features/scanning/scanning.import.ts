import type { FastifyInstance } from 'fastify';
import { badRequest } from '../../core/errors.js';
import { readZip } from '../../core/zip.js';
import { OSV_RECORD, type OsvRecord } from './osv.js';
import { ecosystemFor, ecosystemsOf } from './ecosystems.js';
import { storeAdvisories } from './scanning.store.js';

/** The job that matches the catalogue against the advisories. */
export const MATCHING_JOB = 'advisory-matching';

/** Most records one import takes (a whole ecosystem's OSV export has a few hundred thousand). */
const MAX_RECORDS = 500_000;

/** Why a record is refused, in a few words: the first problem the schema found and where. */
function problem(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]!;
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function parsed(text: string, where: string): OsvRecord[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest(`${where} is not JSON.`);
  }
  const list = Array.isArray(json) ? json : [json];
  return list.map((item, index) => {
    const result = OSV_RECORD.safeParse(item);
    const at = Array.isArray(json) ? `${where}, record ${index + 1},` : where;
    if (!result.success) throw badRequest(`${at} is not an OSV record (${problem(result.error)}).`);
    return result.data;
  });
}

/**
 * The OSV records of an upload: a zip of JSON files (as osv.dev exports each ecosystem, one
 * record per file), a JSON record, or a JSON array of records. The first bad file refuses the
 * whole upload, naming it; nothing is imported then.
 */
export async function recordsOf(body: Buffer, name: string): Promise<OsvRecord[]> {
  if (!body.length) throw badRequest(`${name} is empty: send an OSV export (a zip), a record or an array of records.`);
  const records: OsvRecord[] = [];
  if (body.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    await readZip(
      body,
      (file) => file.toLowerCase().endsWith('.json'),
      (entry, bytes) => {
        if (!bytes) return;
        records.push(...parsed(bytes.toString('utf8'), `The file '${entry.fileName}' of ${name}`));
        if (records.length > MAX_RECORDS) throw badRequest(`${name} holds more than ${MAX_RECORDS} records.`);
      },
    ).catch((error: unknown) => {
      if ((error as { statusCode?: number }).statusCode) throw error;
      throw badRequest(`${name} is not a readable zip: ${(error as Error).message}`);
    });
    if (!records.length) throw badRequest(`${name} holds no OSV record (no .json file).`);
    return records;
  }
  return parsed(body.toString('utf8'), name);
}

/**
 * Stores advisories (an upload's, a source's) and, when any is new or changed, starts the
 * matching of the catalogue against them on whichever node takes the job. Answers the counts.
 */
export async function importAdvisories(app: FastifyInstance, records: OsvRecord[], name: string) {
  const known = ecosystemsOf(app.formatRegistry);
  const counts = await storeAdvisories(
    app.db,
    records,
    name,
    (ecosystem, packageName) => ecosystemFor(known, ecosystem)?.packageName(packageName) ?? packageName,
  );
  if (counts.added || counts.updated)
    void app.jobs.runNow(MATCHING_JOB).catch((error: unknown) => app.log.error({ err: error }, 'matching failed'));
  return { ...counts, records: records.length };
}
