import type { TableName } from '../../db/schema.js';
export { federationMemberRoutes, federationRoutes } from './federation.routes.js';
export { registerFederationMember } from './federation.member.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = [
  'federation_clocks',
  'federation_conflicts',
  'federations',
] as const satisfies readonly TableName[];
