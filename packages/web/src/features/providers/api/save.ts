import { apiFetch } from '../../../api/client';

/** Creates at `base` (POST), or replaces the item named `replaces` (PUT `base/name`). */
export function createOrReplace<T>(base: string, body: unknown, replaces: string | undefined): Promise<T> {
  return replaces === undefined
    ? apiFetch<T>(base, { method: 'POST', body, silent: true })
    : apiFetch<T>(`${base}/${encodeURIComponent(replaces)}`, { method: 'PUT', body, silent: true });
}
