import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BUILD_INFO_REPO,
  DEFAULT_PROJECT,
  GETTING_STARTED_SEEN,
  ONBOARDING_MESSAGES,
  QUICK_SETUP_TYPES,
  USER_CUSTOM_DATA_KEY_PATTERN,
  formatMessage,
  onboardingDataSchema,
  onboardingError,
  onboardingStateSchema,
  packageTypeLabel,
  quickSetupAnswerSchema,
  quickSetupBodySchema,
  userCustomDataBodySchema,
  userCustomDataSchema,
} from '@arca/contracts';
import type { FastifyRequest } from 'fastify';
import { audit } from '../../core/audit.js';
import { isAdminPrincipal } from '../../core/principals.js';
import { badRequest, conflict, notFound } from '../../core/errors.js';
import { allowedOutboundHosts } from '../../core/settings.store.js';
import { listRepositories, quickSetup, recordRepositoryChange } from '../repositories/index.js';
import { customDataOf, deleteCustomData, putCustomData } from '../users/index.js';

/** Custom data keys the onboarding keeps. */
const ONBOARDING = 'onboarding';
const COMPLETED = 'onboardingCompleted';

const userOf = (request: FastifyRequest) => (request.principal.kind === 'user' ? request.principal.user : undefined);
const nameOf = (request: FastifyRequest) => userOf(request)?.name ?? '';

const keyParams = z.object({
  key: z
    .string()
    .regex(
      USER_CUSTOM_DATA_KEY_PATTERN,
      'A key starts with a letter and holds up to 64 letters, digits, dots, dashes and underscores.',
    ),
});

/**
 * The onboarding (spec part 1 §2 and §4): the state the console decides the wizard on, the
 * personalisation it sends, the quick setup that makes repositories per package type, and the
 * per-user custom data those flags live in.
 */
export const onboardingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/system/onboarding',
    { config: { access: 'user' }, schema: { response: { 200: onboardingStateSchema } } },
    async (request) => {
      const data = await customDataOf(app.db, nameOf(request));
      const repositories = (await listRepositories(app.db)).filter((r) => r.key !== BUILD_INFO_REPO);
      const keys = new Set(repositories.map((r) => r.key));
      const admin = isAdminPrincipal(request.principal);
      return {
        gettingStartedSeen: data[GETTING_STARTED_SEEN] === true,
        completed: data[COMPLETED] === true,
        needsOnboarding: app.config.onboarding && admin && repositories.length === 0 && data[COMPLETED] !== true,
        repositoryCount: repositories.length,
        packageTypes: QUICK_SETUP_TYPES.map((type) => ({
          type,
          label: packageTypeLabel(type),
          repositoryKey: type,
          exists: keys.has(type) || keys.has(`${type}-local`) || keys.has(`${type}-remote`),
          upstream: app.formats.defaultUpstream(type) ?? '',
        })),
        defaultProject: { key: DEFAULT_PROJECT.key, name: DEFAULT_PROJECT.name },
      };
    },
  );

  app.post(
    '/system/onboarding',
    { config: { access: 'user' }, schema: { body: onboardingDataSchema } },
    async (request, reply) => {
      const message = onboardingError(request.body);
      if (message) throw badRequest(message);
      const user = nameOf(request);
      await app.db.transaction().execute(async (trx) => {
        await putCustomData(trx, user, ONBOARDING, request.body);
        await putCustomData(trx, user, COMPLETED, true);
        await putCustomData(trx, user, GETTING_STARTED_SEEN, true);
        await audit(
          request,
          { category: 'user', action: 'update', target: `onboarding of ${user}`, after: request.body },
          trx,
        );
      });
      return reply.status(204).send();
    },
  );

  app.post(
    '/ui/onboarding/createDefaultRepos',
    { config: { access: 'admin' }, schema: { body: quickSetupBodySchema, response: { 200: quickSetupAnswerSchema } } },
    async (request) => {
      const existing = new Set((await listRepositories(app.db)).map((r) => r.key));
      const taken = request.body.packageTypes.filter((t) =>
        [t, `${t}-local`, `${t}-remote`].some((key) => existing.has(key)),
      );
      if (taken.length) {
        throw conflict(
          formatMessage(ONBOARDING_MESSAGES.alreadySetUp, { types: taken.map(packageTypeLabel).join(', ') }),
        );
      }
      const project = request.body.inDefaultProject ? DEFAULT_PROJECT.key : null;
      const rows = await quickSetup(app.db, request.body.packageTypes, recordRepositoryChange(request), {
        allowedHosts: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
        defaultUpstream: app.formats.defaultUpstream,
        projectKey: project,
      });
      return {
        repositories: rows.map((r) => ({
          key: r.key,
          rclass: r.rclass as 'local' | 'remote' | 'virtual',
          packageType: r.package_type,
        })),
        project,
      };
    },
  );

  app.get(
    '/ui/userCustomData',
    { config: { access: 'user' }, schema: { response: { 200: userCustomDataSchema } } },
    (request) => customDataOf(app.db, nameOf(request)),
  );
  app.put(
    '/ui/userCustomData/:key',
    { config: { access: 'user' }, schema: { params: keyParams, body: userCustomDataBodySchema } },
    async (request, reply) => {
      const text = JSON.stringify(request.body.value ?? null);
      if (text.length > 16_384) throw badRequest('A value may hold at most 16 KB.');
      await putCustomData(app.db, nameOf(request), request.params.key, request.body.value);
      return reply.status(204).send();
    },
  );
  app.delete(
    '/ui/userCustomData/:key',
    { config: { access: 'user' }, schema: { params: keyParams } },
    async (request, reply) => {
      if (!(await deleteCustomData(app.db, nameOf(request), request.params.key))) {
        throw notFound(`There is no value '${request.params.key}'.`);
      }
      return reply.status(204).send();
    },
  );
};
