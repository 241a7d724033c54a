import type { Db } from '../../db/database.js';
import type { LicenseRow, NewLicense } from '../../db/schema.js';

/** Every licence in force: a deployment holds one, or one per node from a bucket. */
export function activeLicenses(db: Db): Promise<LicenseRow[]> {
  return db.selectFrom('licenses').selectAll().where('active', '=', 1).orderBy('installed_at').orderBy('id').execute();
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

/**
 * Adds licences of one edition and licensee to those in force (a deployment's nodes each take one);
 * licences in force of another edition, licensee or issuer give way to them. A licence already
 * held is replaced by itself: installing the same keys twice changes nothing.
 */
export async function addLicenses(db: Db, licenses: NewLicense[]): Promise<void> {
  const first = licenses[0];
  if (!first) return;
  await db.transaction().execute(async (trx) => {
    const held = await trx.selectFrom('licenses').selectAll().where('active', '=', 1).execute();
    const sameKind = (row: LicenseRow) =>
      row.edition === first.edition && row.licensee === first.licensee && row.issuer === first.issuer;
    const giveWay = held.filter((row) => !sameKind(row)).map((row) => row.id);
    if (giveWay.length) await trx.updateTable('licenses').set({ active: 0 }).where('id', 'in', giveWay).execute();
    await trx
      .deleteFrom('licenses')
      .where(
        'id',
        'in',
        licenses.map((l) => l.id),
      )
      .execute();
    await trx
      .insertInto('licenses')
      .values(licenses.map((l) => ({ ...l, active: 1 })))
      .execute();
  });
}
