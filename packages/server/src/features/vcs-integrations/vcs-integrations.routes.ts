import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  VCS_MESSAGES,
  VCS_VENDORS,
  formatMessage,
  integrationGroupSchema,
  vcsIntegrationFormSchema,
  vcsIntegrationSchema,
  vcsProductsSchema,
  vcsTestResultSchema,
} from '@arca/contracts';
import {
  createIntegration,
  deleteIntegration,
  integrationGroups,
  listIntegrations,
  setProducts,
  testIntegration,
  updateIntegration,
} from './vcs-integrations.service.js';

const admin = { access: 'admin' as const };
const keyParams = z.object({ integrationKey: z.string().max(64) });

/** The console's source-control integrations (spec part 2 §7.11), under its API base. */
export const vcsIntegrationsRoutes: FastifyPluginAsyncZod = async (app) => {
  // every signed-in user sets up the developer tools; source control is the administrators'
  app.get(
    '/integration/getIntegrations',
    { config: { access: 'user' }, schema: { response: { 200: z.array(integrationGroupSchema) } } },
    (request) => integrationGroups(app.db, request.principal.kind === 'user' && request.principal.user.admin === 1),
  );
  app.get(
    '/integration/:vendorName',
    {
      config: admin,
      schema: {
        params: z.object({ vendorName: z.enum(VCS_VENDORS) }),
        querystring: z.object({ serviceName: z.string().max(32).optional() }),
        response: { 200: z.array(vcsIntegrationSchema) },
      },
    },
    (request) => listIntegrations(app.db, request.params.vendorName, request.query.serviceName),
  );
  app.post(
    '/integration/test',
    { config: admin, schema: { body: vcsIntegrationFormSchema, response: { 200: vcsTestResultSchema } } },
    (request) => testIntegration(app, request.body),
  );
  app.post('/integration', { config: admin, schema: { body: vcsIntegrationFormSchema } }, async (request, reply) => {
    const created = await createIntegration(request, request.body);
    return reply.status(201).send({ ...created, message: formatMessage(VCS_MESSAGES.created, { key: created.key }) });
  });
  app.put(
    '/integration/:integrationKey',
    { config: admin, schema: { params: keyParams, body: vcsIntegrationFormSchema } },
    async (request) => {
      const updated = await updateIntegration(request, request.params.integrationKey, request.body);
      return { ...updated, message: formatMessage(VCS_MESSAGES.updated, { name: updated.name }) };
    },
  );
  app.put(
    '/integration/:integrationKey/products',
    { config: admin, schema: { params: keyParams, body: vcsProductsSchema, response: { 200: vcsIntegrationSchema } } },
    (request) => setProducts(request, request.params.integrationKey, request.body.products),
  );
  app.delete('/integration/:integrationKey', { config: admin, schema: { params: keyParams } }, (request) =>
    deleteIntegration(request, request.params.integrationKey),
  );
};
