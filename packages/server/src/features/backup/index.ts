export { backupRoutes, registerBackups } from './backup.routes.js';
export { checkStoreKind, migrateStore } from './store-migrate.js';
