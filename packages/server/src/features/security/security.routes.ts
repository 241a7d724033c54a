import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditPageSchema, auditQuerySchema, securitySettingsSchema } from '@arca/contracts';
import { z } from 'zod';
import { audit } from '../../core/audit.js';
import { auditCsv, exportAudit, queryAudit } from './audit-trail.js';
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

  app.get(
    '/ui/audit/export',
    { schema: { querystring: auditQuerySchema.extend({ format: z.enum(['csv', 'json']).default('csv') }) } },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      const events = await exportAudit(app.db, filter);
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      void reply.header('Content-Disposition', `attachment; filename="arca-audit-${stamp}.${format}"`);
      if (format === 'json') return reply.type('application/json').send(JSON.stringify(events, null, 2));
      return reply.type('text/csv; charset=utf-8').send(auditCsv(events));
    },
  );

  app.get('/ui/audit', { schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } } }, (request) =>
    queryAudit(app.db, request.query),
  );
};
