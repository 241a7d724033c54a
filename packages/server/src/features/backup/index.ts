export { backupRoutes, registerBackups } from './backup.routes.js';
