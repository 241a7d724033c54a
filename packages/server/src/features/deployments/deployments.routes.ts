import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DEPLOYMENT_MESSAGES,
  deploymentBodySchema,
  deploymentLocationSchema,
  deploymentSchema,
  deploymentUpdateSchema,
  pairingExchangeSchema,
  p2pUsageSchema,
  pairingTokenSchema,
  reauthBodySchema,
  topologySchema,
} from '@arca/contracts';
import { BUILD } from '../../core/build-info.js';
import { serverNameOf } from '../../core/settings.store.js';
import { exchangePairingToken, issuePairingToken } from './deployments.pairing.js';
import { followRegistrations } from './deployments.polling.js';
import { p2pUsage, setOwnLocation, topology } from './deployments.topology.js';
import {
  checkDeployment,
  deleteDeployment,
  getDeployment,
  listDeployments,
  reauthenticate,
  registerDeployment,
  updateDeployment,
} from './deployments.service.js';

const idParams = z.object({ id: z.string().max(64) });

/** The target's side of pairing: a token its administrator hands out, exchanged once for a service token. */
export const pairingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/access/api/v1/pairing/token',
    { config: { access: 'admin' }, schema: { response: { 200: pairingTokenSchema } } },
    (request) => issuePairingToken(request),
  );
  app.post(
    '/access/api/v1/pairing/exchange',
    {
      config: { access: 'public' },
      schema: {
        body: z.object({ token: z.string().max(512), name: z.string().max(200), url: z.string().max(2048) }),
        response: { 200: pairingExchangeSchema },
      },
    },
    async (request) => ({
      ...(await exchangePairingToken(request, request.body.token, { name: request.body.name, url: request.body.url })),
      name: await serverNameOf(app.db, app.config.serverName, 'Arca'),
      version: BUILD.version,
    }),
  );
};

/** The management service's calls (`mc/api/v1/`): deployments registered, tested, re-authenticated. */
export const deploymentsRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = { access: 'admin' as const };
  app.get('/mc/api/v1/deployments', { config: admin, schema: { response: { 200: z.array(deploymentSchema) } } }, () =>
    listDeployments(app.db),
  );
  app.post(
    '/mc/api/v1/deployments',
    { config: admin, schema: { body: deploymentBodySchema, response: { 201: deploymentSchema } } },
    async (request, reply) => {
      const registered = await registerDeployment(request, request.body);
      await followRegistrations(app);
      return reply.status(201).send(registered);
    },
  );
  app.get('/mc/api/v1/topology', { config: admin, schema: { response: { 200: topologySchema } } }, (request) =>
    topology(request),
  );
  app.get(
    '/mc/api/ui/v1/system/usage/p2p',
    {
      config: admin,
      schema: {
        querystring: z.object({
          top: z.coerce.number().int().min(1).max(100).default(5),
          from: z.coerce.number().optional(),
          to: z.coerce.number().optional(),
        }),
        response: { 200: p2pUsageSchema },
      },
    },
    (request) => p2pUsage(request, request.query),
  );
  app.put(
    '/mc/api/v1/topology/location',
    { config: admin, schema: { body: deploymentLocationSchema } },
    async (request, reply) => {
      await setOwnLocation(request, request.body);
      return reply.status(204).send();
    },
  );
  app.get(
    '/mc/api/v1/deployments/:id',
    { config: admin, schema: { params: idParams, response: { 200: deploymentSchema } } },
    (request) => getDeployment(app.db, request.params.id),
  );
  app.put(
    '/mc/api/v1/deployments/:id',
    { config: admin, schema: { params: idParams, body: deploymentUpdateSchema, response: { 200: deploymentSchema } } },
    (request) => updateDeployment(request, request.params.id, request.body),
  );
  app.delete('/mc/api/v1/deployments/:id', { config: admin, schema: { params: idParams } }, async (request) => {
    await deleteDeployment(request, request.params.id);
    await followRegistrations(app);
    return { message: DEPLOYMENT_MESSAGES.deleted };
  });
  app.post(
    '/mc/api/v1/deployments/:id/test',
    {
      config: admin,
      schema: {
        params: idParams,
        response: { 200: z.object({ ok: z.boolean(), message: z.string(), deployment: deploymentSchema }) },
      },
    },
    async (request) => {
      const deployment = await checkDeployment(app, request.params.id);
      const ok = deployment.status === 'ONLINE' || deployment.status === 'PARTIAL';
      return {
        ok,
        message: ok
          ? DEPLOYMENT_MESSAGES.testOk
          : `${DEPLOYMENT_MESSAGES.testFailed}: ${deployment.status_details || deployment.status}`,
        deployment,
      };
    },
  );
  app.post(
    '/mc/api/v1/deployments/:id/reauth',
    { config: admin, schema: { params: idParams, body: reauthBodySchema, response: { 200: deploymentSchema } } },
    (request) => reauthenticate(request, request.params.id, request.body),
  );
};
