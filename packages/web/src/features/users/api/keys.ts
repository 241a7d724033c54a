import { directoryKeys } from '../../../lib/queries/directory';

/** The users feature's query keys: the directory's user lists, and a user's API key. */
export const usersKeys = {
  ...directoryKeys,
  apiKeyOf: (user: string) => ['apiKey', 'of', user] as const,
};
