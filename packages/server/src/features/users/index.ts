import type { TableName } from '../../db/schema.js';
export { usersRestRoutes, usersRoutes } from './users.routes.js';
export { checkPassword, getUser } from './users.service.js';
export { customDataOf, deleteCustomData, putCustomData } from './users.store.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['user_custom_data'] as const satisfies readonly TableName[];
