import type { Db } from '../../db/database.js';
import type { LicenseRow, NewLicense } from '../../db/schema.js';

export function findActiveLicense(db: Db): Promise<LicenseRow | undefined> {
  return db.selectFrom('licenses').selectAll().where('active', '=', 1).executeTakeFirst();
}

/** Makes `license` the only active licence, replacing a row with the same id. */
export async function activateLicense(db: Db, license: NewLicense): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('licenses').set({ active: 0 }).where('active', '=', 1).execute();
    await trx.deleteFrom('licenses').where('id', '=', license.id).execute();
    await trx
      .insertInto('licenses')
      .values({ ...license, active: 1 })
      .execute();
  });
}
