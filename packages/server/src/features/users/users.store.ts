import type { Db } from '../../db/database.js';
import type { UserRow } from '../../db/schema.js';

export function listUsers(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').selectAll().orderBy('name').execute();
}
