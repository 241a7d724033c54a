import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOGO_MAX_BYTES, generalConfigAnswerSchema, generalSettingsSchema, reverseProxySchema } from '@arca/contracts';
import {
  generalConfigAnswer,
  generalSettings,
  readLogo,
  removeLogo,
  saveGeneralSettings,
  saveLogo,
} from './settings.service.js';
import { nginxConfig } from './settings.nginx.js';

/** General settings (`/admin/configuration/general`), the uploaded logo and the reverse proxy's configuration. */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser(/^image\//, { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES * 4 }, (_request, body, done) =>
    done(null, body),
  );
  const configured = () => ({ serverName: app.config.serverName, baseUrl: app.config.baseUrl });

  app.get(
    '/ui/generalConfig',
    { config: { access: 'admin' }, schema: { response: { 200: generalConfigAnswerSchema } } },
    () => generalConfigAnswer(app.db, configured()),
  );
  app.put(
    '/ui/generalConfig',
    {
      config: { access: 'admin' },
      schema: { body: generalSettingsSchema, response: { 200: generalConfigAnswerSchema } },
    },
    async (request) => {
      await saveGeneralSettings(request, request.body);
      return generalConfigAnswer(app.db, configured());
    },
  );

  /** The logo as an image, to anyone (the login page shows it). */
  app.get('/ui/generalConfig/logo', { config: { access: 'public' } }, async (request, reply) => {
    const logo = await readLogo(app.db);
    const etag = `"${logo.sha256}"`;
    reply.header('etag', etag).header('cache-control', 'public, max-age=300');
    // an SVG is shown as an image only: no script of it runs at this address
    reply.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    return reply.type(logo.type).send(logo.bytes);
  });
  app.post('/ui/generalConfig/logo', { config: { access: 'admin' } }, async (request, reply) => {
    await saveLogo(request, Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
    return reply.status(204).send();
  });
  app.delete('/ui/generalConfig/logo', { config: { access: 'admin' } }, async (request, reply) => {
    await removeLogo(request);
    return reply.status(204).send();
  });

  app.get('/ui/reverseProxy/nginx', { config: { access: 'admin' } }, async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').send(nginxConfig((await generalSettings(app.db)).reverseProxy)),
  );
};

/** Artifactory's web server calls: the reverse proxy settings and the nginx configuration made of them. */
export const settingsRestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/artifactory/api/system/configuration/webServer',
    { config: { access: 'admin' }, schema: { response: { 200: reverseProxySchema } } },
    async () => (await generalSettings(app.db)).reverseProxy,
  );
  app.get(
    '/artifactory/api/system/configuration/reverseProxy/nginx',
    { config: { access: 'admin' } },
    async (_r, reply) =>
      reply.type('text/plain; charset=utf-8').send(nginxConfig((await generalSettings(app.db)).reverseProxy)),
  );
};
