import type { AdoptionMetricBody } from '@arca/contracts';
import { apiFetch } from '../../../api/client';

/** Counts the use of a console feature; failures are log-only. */
export function postAdoptionMetric(metric: Pick<AdoptionMetricBody, 'featureName' | 'action'> & { value?: number }) {
  return apiFetch<void>('system/adoptionMetric', {
    method: 'POST',
    body: { type: 'Increase', value: 1, ...metric },
    silent: true,
    background: true,
  }).catch((error: unknown) => console.warn('adoption metric not sent', error));
}
