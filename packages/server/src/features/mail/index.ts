export { mailRoutes } from './mail.routes.js';
export { linkBaseUrl, mailConfigured, requireLinkBaseUrl, sendMail } from './mail.service.js';
