import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { proxyAnswerSchema, proxySchema } from '@arca/contracts';
import { getProxy, listProxies, removeProxy, saveProxy } from './proxies.service.js';

const keyParams = z.object({ key: z.string() });

/** The HTTP proxies of outbound requests (`ui/proxies`), for administrators. */
export const proxiesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ui/proxies',
    { config: { access: 'admin' }, schema: { response: { 200: z.array(proxyAnswerSchema) } } },
    () => listProxies(app.db),
  );
  app.get(
    '/ui/proxies/:key',
    { config: { access: 'admin' }, schema: { params: keyParams, response: { 200: proxyAnswerSchema } } },
    (request) => getProxy(app.db, request.params.key),
  );
  app.post(
    '/ui/proxies',
    { config: { access: 'admin' }, schema: { body: proxySchema, response: { 201: proxyAnswerSchema } } },
    async (request, reply) => reply.status(201).send(await saveProxy(request, request.body)),
  );
  app.put(
    '/ui/proxies/:key',
    {
      config: { access: 'admin' },
      schema: { params: keyParams, body: proxySchema, response: { 200: proxyAnswerSchema } },
    },
    (request) => saveProxy(request, request.body, request.params.key),
  );
  app.delete(
    '/ui/proxies/:key',
    { config: { access: 'admin' }, schema: { params: keyParams } },
    async (request, reply) => {
      await removeProxy(request, request.params.key);
      return reply.status(204).send();
    },
  );
};
