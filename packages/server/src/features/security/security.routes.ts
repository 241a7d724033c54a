import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema, securitySettingsSchema } from '@arca/contracts';
import { audit, queryAudit } from '../audit/audit.service.js';
import { getSecuritySettings, saveSecuritySettings } from './security.service.js';

/** Security settings and the audit trail (administrators). */
export const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/security/settings', { schema: { response: { 200: securitySettingsSchema } } }, () =>
    getSecuritySettings(app.db, app.config),
  );

  app.put(
    '/ui/security/settings',
    { schema: { body: securitySettingsSchema, response: { 200: securitySettingsSchema } } },
    async (request) => {
      const before = await getSecuritySettings(app.db, app.config);
      await app.db.transaction().execute(async (trx) => {
        await saveSecuritySettings(trx, request.body);
        await audit(
          request,
          { category: 'security', action: 'update', target: 'security settings', before, after: request.body },
          trx,
        );
      });
      return getSecuritySettings(app.db, app.config);
    },
  );

  app.get('/ui/audit', { schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } } }, (request) =>
    queryAudit(app.db, request.query),
  );
};
