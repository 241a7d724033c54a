export { federationMemberRoutes, federationRoutes } from './federation.routes.js';
export { registerFederationMember } from './federation.member.js';
