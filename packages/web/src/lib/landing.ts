import type { UserData } from '@arca/contracts';

/**
 * Landing page by role (spec part 1 §2): topology for admins with mission control, packages for
 * users, repos on a lightweight instance. Until those pages exist, the overview is the nearest.
 */
export function landingPath(_user: UserData): string {
  return '/overview';
}
