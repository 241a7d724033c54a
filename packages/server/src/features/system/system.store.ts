import type { AdoptionMetricBody } from '@arca/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/** Adds to the running total of a feature-adoption metric. */
export async function addAdoptionMetric(db: Db, metric: AdoptionMetricBody, now = Date.now()): Promise<void> {
  await db
    .insertInto('adoption_metrics')
    .values({ feature_name: metric.featureName, action: metric.action, total: metric.value, updated_at: now })
    .onConflict((oc) =>
      oc.columns(['feature_name', 'action']).doUpdateSet({
        total: sql<number>`adoption_metrics.total + ${metric.value}`,
        updated_at: now,
      }),
    )
    .execute();
}

export function findAdoptionMetric(db: Db, featureName: string, action: string) {
  return db
    .selectFrom('adoption_metrics')
    .selectAll()
    .where('feature_name', '=', featureName)
    .where('action', '=', action)
    .executeTakeFirst();
}
