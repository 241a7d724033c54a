/** What other features use of the permissions feature: they import this module only. */
export { permissionsKeys } from './api/keys';
export { EffectivePermissions } from './components/effective-permissions';
