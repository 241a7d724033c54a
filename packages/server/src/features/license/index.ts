export { licenseRestRoutes, licenseRoutes } from './license.routes.js';
export { LicenseService } from './license.service.js';
export { exportIssuerPublicKey, issuerKeyId, signDocument, signLicense, type IssuerKey } from './license-keys.js';
