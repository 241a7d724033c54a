import { apiFetch } from '../../../api/client';

/** One GraphQL call of the catalogue (`POST mds/{packages|package|versions}`); its data, or the first error. */
export async function catalogueQuery<T>(
  call: 'packages' | 'package' | 'versions',
  query: string,
  variables: Record<string, unknown>,
): Promise<T> {
  const answer = await apiFetch<{ data?: T; errors?: { message: string }[] }>(`mds/${call}`, {
    method: 'POST',
    body: { query, variables },
  });
  if (!answer.data) throw new Error(answer.errors?.[0]?.message ?? 'The package catalogue did not answer.');
  return answer.data;
}
