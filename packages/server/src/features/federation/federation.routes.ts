import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FEDERATION_MESSAGES,
  applyAnswerSchema,
  applyBodySchema,
  broadcastAnswerSchema,
  broadcastBodySchema,
  memberBroadcastBodySchema,
  federationBodySchema,
  federationCandidateSchema,
  federationSchema,
  memberConfigSchema,
  memberStateSchema,
} from '@arca/contracts';
import { auditActor } from '../../core/audit.js';
import { applyVersions, broadcast, clearMemberConfig, memberState, setMemberConfig } from './federation.member.js';
import {
  broadcastFrom,
  candidates,
  deleteFederation,
  getFederation,
  listFederations,
  memberStateOf,
  saveFederation,
} from './federation.service.js';

const admin = { access: 'admin' as const };
const sourceParams = z.object({ source: z.string().max(64) });

/** A member's side: its part set by the management deployment, versions its peers send, a full re-sync. */
export const federationMemberRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/access/api/v1/federation/member', { config: admin, schema: { response: { 200: memberStateSchema } } }, () =>
    memberState(app),
  );
  app.put(
    '/access/api/v1/federation/member',
    { config: { ...admin, keepNulls: true }, schema: { body: memberConfigSchema } },
    async (request, reply) => {
      await setMemberConfig(app, auditActor(request), request.body);
      return reply.status(204).send();
    },
  );
  app.delete('/access/api/v1/federation/member', { config: admin }, async (request, reply) => {
    await clearMemberConfig(app, auditActor(request));
    return reply.status(204).send();
  });
  app.post(
    '/access/api/v1/federation/apply',
    // a null means something here (a deleted entity, a token that never expires)
    {
      config: { ...admin, keepNulls: true },
      bodyLimit: 64 * 1024 * 1024,
      schema: { body: applyBodySchema, response: { 200: applyAnswerSchema } },
    },
    (request) => applyVersions(app, request.body.origin, request.body.versions),
  );
  app.post(
    '/access/api/v1/federation/broadcast',
    {
      config: admin,
      schema: { body: memberBroadcastBodySchema, response: { 200: broadcastAnswerSchema.omit({ message: true }) } },
    },
    (request) => broadcast(app, { adminCredentials: request.body.admin_credentials }),
  );
  // the console's broadcast (spec part 2 §7.5): the source is named in the body
  app.post(
    '/access/system/broadcast',
    { config: admin, schema: { body: broadcastBodySchema, response: { 200: broadcastAnswerSchema } } },
    (request) => broadcastFrom(request, request.body.source, request.body.admin_credentials),
  );
};

/** The management deployment's calls (`mc/api/v1/federation`, spec part 2 §7.5). */
export const federationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/mc/api/v1/federation',
    { config: admin, schema: { response: { 200: z.array(federationSchema) } } },
    (request) => listFederations(request),
  );
  app.get(
    '/mc/api/v1/federation/candidates',
    { config: admin, schema: { response: { 200: z.array(federationCandidateSchema) } } },
    (request) => candidates(request),
  );
  app.get(
    '/mc/api/v1/federation/:source',
    { config: admin, schema: { params: sourceParams, response: { 200: federationSchema } } },
    (request) => getFederation(request, request.params.source),
  );
  app.get(
    '/mc/api/v1/federation/:source/state',
    { config: admin, schema: { params: sourceParams, response: { 200: memberStateSchema } } },
    (request) => memberStateOf(request, request.params.source),
  );
  app.post(
    '/mc/api/v1/federation',
    { config: admin, schema: { body: federationBodySchema, response: { 201: z.array(federationSchema) } } },
    async (request, reply) => reply.status(201).send(await saveFederation(request, request.body)),
  );
  app.delete('/mc/api/v1/federation/:source', { config: admin, schema: { params: sourceParams } }, async (request) => {
    const { failed } = await deleteFederation(request, request.params.source);
    return {
      message: failed.length
        ? `${FEDERATION_MESSAGES.deleted} These members could not be reached: ${failed.join(', ')}.`
        : FEDERATION_MESSAGES.deleted,
    };
  });
};
