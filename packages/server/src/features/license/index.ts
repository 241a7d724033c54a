export { licenseRoutes } from './license.routes.js';
export { LicenseService } from './license.service.js';
