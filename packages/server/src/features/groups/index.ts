export { groupsRestRoutes, groupsRoutes } from './groups.routes.js';
export { adminGroups, autoJoinGroups, groupsByUser, groupsOfUser, replaceUserGroups } from './groups.service.js';
