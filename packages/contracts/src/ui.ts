/** Product strings and constants of the console shell (spec part 1 §2, part 2 §9). */
export const UNSAVED_CHANGES = {
  title: 'Discard Changes',
  message: 'You have unsaved changes. Leaving this page will discard changes.',
  resetMessage: 'You have unsaved changes. Reset action will discard changes.',
  discard: 'Discard',
  reset: 'Reset',
  cancel: 'Cancel',
} as const;

export const NOTIFICATION_DURATION_MS = { error: 4500, success: 3000 } as const;

/** Idle time after which the session is checked again when activity resumes. */
export const IDLE_CHECK_MS = 60_000;

/** How long the post-login redirect target is remembered. */
export const POST_LOGIN_PATH_TTL_MS = 60 * 60 * 1000;

export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export const DEFAULT_SERVER_NAME = 'Arca';

/*
 * What the console's first load needs of the users and onboarding contracts. These live here,
 * in a module without schemas, so that the first load does not bring zod with them (zod comes
 * with the pages that validate).
 */

export const ANONYMOUS_USER = 'anonymous';

/** Anonymous means a name that is empty or 'anonymous'. */
export function isAnonymousName(name: string | null | undefined): boolean {
  return !name || name === ANONYMOUS_USER;
}

/** The user custom-data key that records the getting-started page was seen. */
export const GETTING_STARTED_SEEN = 'gettingStartedSeen';
