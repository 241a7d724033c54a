import type { TableName } from '../../db/schema.js';
export { licenseRestRoutes, licenseRoutes } from './license.routes.js';
export { LicenseService } from './license.service.js';
export { exportIssuerPublicKey, issuerKeyId, signDocument, signLicense, type IssuerKey } from './license-keys.js';

/** The tables this feature owns: only its modules name them; the others call its exports (db/ownership.test.ts). */
export const OWNED_TABLES = ['licenses'] as const satisfies readonly TableName[];
