export { backupKeys } from './api/keys';
