import type { UserData } from '@arca/contracts';

/** The administrators' landing when the mission-control service runs (ARCA_SERVICES includes `mc`). */
export const TOPOLOGY_PATH = '/admin/mission_control/topology';

/**
 * Landing page by role (spec part 1 §2): packages for ordinary users; for administrators the
 * topology when the mission-control service is present, the overview dashboard otherwise.
 */
export function landingPath(user: UserData, services: Record<string, boolean> = {}): string {
  if (!user.admin) return '/packages';
  return services.mc ? TOPOLOGY_PATH : '/overview';
}
