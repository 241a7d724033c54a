/**
 * Listeners told when a user's credentials or rights change (password, deletion, groups,
 * lockout, revoked token), so that caches of verified credentials drop them at once.
 */
const credentialListeners = new Set<(userId: string) => void>();

export function onCredentialsChanged(listener: (userId: string) => void): void {
  credentialListeners.add(listener);
}

export function credentialsChanged(userId: string): void {
  credentialListeners.forEach((listener) => listener(userId));
}
