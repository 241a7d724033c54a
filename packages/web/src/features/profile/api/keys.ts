/** The profile feature's query keys: access tokens and API keys. */
export const profileKeys = {
  tokens: ['tokens'] as const,
  tokenList: (all: boolean) => ['tokens', all ? 'all' : 'mine'] as const,
  apiKey: ['apiKey'] as const,
  /** Another user's API key (administrators, from the user form). */
  apiKeyOf: (user: string) => ['apiKey', 'of', user] as const,
};
