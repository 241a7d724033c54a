import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { installLicenseBodySchema, licenseInfoSchema } from '@arca/contracts';
import { audit } from '../../core/audit.js';

/** The licences page: the licence in force, and installing another. */
export const licenseRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/ui/license', { config: { access: 'admin' }, schema: { response: { 200: licenseInfoSchema } } }, () =>
    app.license.current(),
  );

  app.post(
    '/ui/license',
    { config: { access: 'admin' }, schema: { body: installLicenseBodySchema, response: { 200: licenseInfoSchema } } },
    async (request) => {
      const by = request.principal.kind === 'user' ? request.principal.user.name : 'anonymous';
      const info = await app.license.install(request.body.licenseKey, by);
      app.accessLog.info({ edition: info.edition, licensee: info.licensee, by }, 'licence installed');
      await audit(request, {
        category: 'license',
        action: 'install',
        target: info.id ?? info.edition,
        after: { edition: info.edition, licensee: info.licensee, id: info.id, expiresAt: info.expiresAt },
      });
      return info;
    },
  );
};
