/** The auth feature's query keys: who is signed in, what the sign-in pages show, the sign-in flows. */
export const authKeys = {
  all: ['auth'] as const,
  current: ['auth', 'current'] as const,
  footer: ['auth', 'footer'] as const,
  globalState: ['auth', 'globalState'] as const,
  loginRelatedData: ['auth', 'loginRelatedData'] as const,
  loginProviders: ['auth', 'loginProviders'] as const,
  mfaEnrollment: ['auth', 'mfaEnrollment'] as const,
  resetKey: (key: string | null) => ['auth', 'resetKey', key] as const,
  invitation: (token: string | null) => ['auth', 'invitation', token] as const,
  webLogin: (id: string) => ['auth', 'webLogin', id] as const,
};
