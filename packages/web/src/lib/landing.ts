import type { UserData } from '@arca/contracts';

/**
 * Landing page by role (spec part 1 §2): packages for ordinary users; for administrators the
 * topology when the mission-control service is present — until it is, the overview dashboard.
 */
export function landingPath(user: UserData): string {
  return user.admin ? '/overview' : '/packages';
}
