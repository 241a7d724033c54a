import type { MailSettings, SecuritySettings } from '@arca/contracts';
import type { Db } from '../db/database.js';

/** Known settings and their defaults. */
export const SETTING_DEFAULTS = {
  'security.anonymousAccess': false as boolean,
  /** Security settings other than anonymous access; missing fields take the configured defaults. */
  'security.policy': {} as Partial<Omit<SecuritySettings, 'anonymousAccess'>>,
  /** SMTP settings; see features/mail. */
  mail: {} as Partial<MailSettings>,
};
export type SettingKey = keyof typeof SETTING_DEFAULTS;

export async function getSetting<K extends SettingKey>(db: Db, key: K): Promise<(typeof SETTING_DEFAULTS)[K]> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as (typeof SETTING_DEFAULTS)[K]) : SETTING_DEFAULTS[key];
}

export async function putSetting<K extends SettingKey>(
  db: Db,
  key: K,
  value: (typeof SETTING_DEFAULTS)[K],
): Promise<void> {
  const now = Date.now();
  await db
    .insertInto('settings')
    .values({ key, value: JSON.stringify(value), updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
    .execute();
}
