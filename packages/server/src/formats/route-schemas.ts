import { z } from 'zod';

/**
 * What the formats' routes declare of their requests, shared: the parts of an address and a body
 * taken as it came. Each route adds its summary (and JSON bodies their shapes) beside it.
 */

/** The rest of an address after a route's prefix (`/artifactory/api/npm/*`). */
export const restOfPath = z.object({
  '*': z.string().describe('the rest of the address: a repository key and a path'),
});

/** A repository named in the address. */
export const repoKeyParams = z.object({ repoKey: z.string().describe('the repository key') });

/** A repository and the rest of the address. */
export const repoKeyAndRest = repoKeyParams.extend({ '*': z.string().describe('the path in the repository') });

/**
 * A body the route streams on its own (a package file, an image layer): its parser leaves nothing
 * to validate, so the schema only names it.
 */
export const rawBody = z
  .custom<null | undefined>((value) => value === null || value === undefined)
  .describe('the bytes as sent, streamed');

/** A body read whole as it came (a client's JSON the format reads itself, an archive): a Buffer, or none. */
export const bufferedBody = z
  .custom<Buffer | null | undefined>((value) => value === null || value === undefined || Buffer.isBuffer(value))
  .transform((value) => value ?? undefined)
  .describe('the bytes as sent');
