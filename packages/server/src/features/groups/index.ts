export { groupsRestRoutes, groupsRoutes } from './groups.routes.js';
export { autoJoinGroups, groupsOfUser, replaceUserGroups } from './groups.service.js';
