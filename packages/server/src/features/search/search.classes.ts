import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/database.js';
import type { Principal } from '../../core/principals.js';
import { SEARCH_MESSAGES } from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { wildcard } from './aql.compile.js';
import { canSee, readableRepositories } from './aql.service.js';

/** Most rows read when rights stop at paths and must be checked row by row. */
const MAX_FILTERED_ROWS = 100_000;

export interface ClassQuery {
  /** A class name (`StringUtils`, `String*`) or, unless `searchClassOnly`, a qualified one (`org.acme.*Utils`). */
  name: string;
  /** A package (`org.apache.commons` or `org/apache/commons`, wildcards allowed) the class must be in. */
  path?: string;
  excludeInnerClasses?: boolean;
  searchClassOnly?: boolean;
  repos?: string[];
  limit: number;
}

export interface ClassHit {
  repoKey: string;
  archivePath: string;
  archiveName: string;
  className: string;
  classPath: string;
  innerClass: boolean;
  size: number;
  modifiedAt: number;
}

/** Java classes of deployed jar, war and ear archives the caller may read. */
export async function searchClasses(db: Db, principal: Principal, query: ClassQuery): Promise<ClassHit[]> {
  const name = query.name.trim() || '*';
  if (!`${name}${query.path ?? ''}`.replace(/[*?]/g, '')) throw badRequest(SEARCH_MESSAGES.noClass);
  const readable = await readableRepositories(db, principal, { trash: false });
  let repos = [...readable.whole, ...readable.partial.keys()];
  if (query.repos?.length) repos = repos.filter((r) => query.repos!.includes(r));
  if (!repos.length) return [];

  const postgres = isPostgres(db);
  const qualified = !query.searchClassOnly && name.includes('.');
  let select = db
    .selectFrom('archive_classes as c')
    .innerJoin('items as i', 'i.id', 'c.item_id')
    .select([
      'i.repo_key',
      'i.path as archive_path',
      'i.name as archive_name',
      'i.size',
      'i.modified_at',
      'c.name',
      'c.path',
      'c.inner_class',
    ])
    .where('i.repo_key', 'in', repos)
    .where(() =>
      qualified
        ? wildcard(sql.ref('c.path'), `${name.replaceAll('.', '/')}.class`, postgres)
        : wildcard(sql.ref('c.name'), name, postgres),
    );
  if (query.path?.trim()) {
    const pkg = query.path.trim().replaceAll('.', '/').replace(/\/+$/, '');
    select = select.where(() => wildcard(sql.ref('c.path'), `${pkg}/*`, postgres));
  }
  if (query.excludeInnerClasses) select = select.where('c.inner_class', '=', 0);
  const rows = await select
    .orderBy('c.name')
    .orderBy('i.repo_key')
    .orderBy('i.path')
    .limit(readable.partial.size ? MAX_FILTERED_ROWS : query.limit)
    .execute();
  return rows
    .filter((r) => canSee(readable, r.repo_key, r.archive_path))
    .slice(0, query.limit)
    .map((r) => ({
      repoKey: r.repo_key,
      archivePath: r.archive_path,
      archiveName: r.archive_name,
      className: r.name,
      classPath: r.path,
      innerClass: r.inner_class === 1,
      size: Number(r.size),
      modifiedAt: Number(r.modified_at),
    }));
}
