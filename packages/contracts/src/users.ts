import { z } from 'zod';

/** One row of the users list of the administration console. */
export const userListItemSchema = z.object({
  name: z.string(),
  email: z.string().nullable(),
  admin: z.boolean(),
  disableUIAccess: z.boolean(),
  realm: z.string(),
  lastLoggedIn: z.string().nullable(),
  createdAt: z.string(),
});
export type UserListItem = z.infer<typeof userListItemSchema>;

export const userListSchema = z.array(userListItemSchema);

/** Default page size of console lists (spec part 2 §9). */
export const DEFAULT_LIST_PAGE_SIZE = 100;
