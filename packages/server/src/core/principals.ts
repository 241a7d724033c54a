import type { Db } from '../db/database.js';
import type { Principal } from '../features/auth/auth.service.js';

/** Who a grant or membership may name on a principal's behalf: its user name and its groups. */
export interface PrincipalNames {
  /** Null for a token scoped to groups: only the groups' rights apply. */
  user: string | null;
  groups: string[];
  /** One of the user's groups has administrator privileges. */
  adminViaGroup: boolean;
}

const cache = new WeakMap<Principal, Promise<PrincipalNames>>();

async function load(db: Db, principal: Principal): Promise<PrincipalNames> {
  if (principal.kind !== 'user') return { user: null, groups: [], adminViaGroup: false };
  const rows = await db
    .selectFrom('group_members as m')
    .innerJoin('groups as g', 'g.name', 'm.group_name')
    .select(['m.group_name', 'g.admin_privileges'])
    .where('m.user_id', '=', principal.user.id)
    .execute();
  const groups = rows.map((r) => r.group_name);
  const { scopeGroups } = principal;
  // a token scoped to groups carries those of them the user still belongs to, never administration
  if (scopeGroups) return { user: null, groups: groups.filter((g) => scopeGroups.includes(g)), adminViaGroup: false };
  return { user: principal.user.name, groups, adminViaGroup: rows.some((r) => r.admin_privileges === 1) };
}

/**
 * The names a principal's rights come from, read once per request (the principal object lives
 * for one request, so a membership change applies to the next one).
 */
export function principalNames(db: Db, principal: Principal): Promise<PrincipalNames> {
  let names = cache.get(principal);
  if (!names) {
    names = load(db, principal);
    cache.set(principal, names);
  }
  return names;
}

/** `[type, name]` pairs to match against `principal_type` / `principal_name` columns. */
export function principalPairs(names: PrincipalNames): { type: 'user' | 'group'; names: string[] }[] {
  return [
    ...(names.user ? [{ type: 'user' as const, names: [names.user] }] : []),
    ...(names.groups.length ? [{ type: 'group' as const, names: names.groups }] : []),
  ];
}
