import type { TableName } from '../../db/schema.js';
export { groupsRestRoutes, groupsRoutes } from './groups.routes.js';
export { adminGroups, autoJoinGroups, groupsByUser, groupsOfUser, replaceUserGroups } from './groups.service.js';
export { groupNames, insertGroup } from './groups.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['groups', 'group_members'] as const satisfies readonly TableName[];
