import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  OAUTH_DEFAULT_SCOPE,
  TERRAFORM_CLIENT_ID,
  TERRAFORM_LOGIN_PORTS,
  TERRAFORM_MESSAGES,
  TERRAFORM_REGISTRY_PATHS,
  terraformAuthorizeQuerySchema,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { OauthClientsTable } from '../../db/schema.js';
import { badRequest, forbidden } from '../../core/errors.js';
import { OAuthError, exchangeCode, issueCode, oauthErrorHandler } from './app-integrations.service.js';

const TOKEN_PATH = '/access/api/v1/terraform/oauth2/token';

/** Terraform's own client: public (no secret anyone knows), PKCE required; made on first use. */
async function terraformClient(db: Db): Promise<OauthClientsTable> {
  await db
    .insertInto('oauth_clients')
    .values({
      id: randomUUID(),
      client_id: TERRAFORM_CLIENT_ID,
      secret_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
      name: 'Terraform CLI',
      type: 'native',
      description: 'terraform login',
      callback_url: 'http://localhost/login',
      platform_base_url: '',
      created_at: Date.now(),
      created_by: 'system',
    })
    .onConflict((oc) => oc.column('client_id').doNothing())
    .execute();
  return db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('client_id', '=', TERRAFORM_CLIENT_ID)
    .executeTakeFirstOrThrow();
}

/** Terraform's redirect is its own listener on this machine: `http://localhost:<10000-10010>/login`. */
function localListener(redirectUri: string): boolean {
  try {
    const url = new URL(redirectUri);
    const port = Number(url.port);
    return (
      url.protocol === 'http:' &&
      ['localhost', '127.0.0.1'].includes(url.hostname) &&
      url.pathname === '/login' &&
      port >= TERRAFORM_LOGIN_PORTS[0] &&
      port <= TERRAFORM_LOGIN_PORTS[1]
    );
  } catch {
    return false;
  }
}

/** The signed-in user grants `terraform login`: a code for Terraform's listener. */
async function authorizeTerraform(
  request: FastifyRequest,
  query: z.infer<typeof terraformAuthorizeQuerySchema>,
): Promise<{ redirectUri: string }> {
  const { principal } = request;
  if (principal.kind !== 'user') throw forbidden(TERRAFORM_MESSAGES.error);
  if (query.client_id !== TERRAFORM_CLIENT_ID) throw badRequest(TERRAFORM_MESSAGES.error);
  if (!localListener(query.redirect_uri)) throw badRequest(TERRAFORM_MESSAGES.redirect);
  await terraformClient(request.server.db);
  const code = await issueCode(request, {
    clientId: TERRAFORM_CLIENT_ID,
    userId: principal.user.id,
    redirectUri: query.redirect_uri,
    challenge: query.code_challenge,
    scope: OAUTH_DEFAULT_SCOPE,
    audit: { target: principal.user.name, client: 'Terraform CLI' },
  });
  const back = new URL(query.redirect_uri);
  back.searchParams.set('code', code);
  if (query.state !== undefined) back.searchParams.set('state', query.state);
  return { redirectUri: back.toString() };
}

/** The console's call behind the Terraform authorise screen (spec part 2 §7.16). */
export const terraformConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  // a POST, so that the console's CSRF header is required: a link cannot make a code for someone
  app.post(
    '/ui/oauth2/authorize',
    { config: { access: 'user' }, schema: { body: terraformAuthorizeQuerySchema } },
    (request) => authorizeTerraform(request, request.body),
  );
};

/**
 * What `terraform login` finds and uses: the service discovery document with `login.v1`, and the
 * token endpoint for its public client (the PKCE verifier is its proof).
 */
export const terraformLoginRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );

  app.get('/.well-known/terraform.json', { config: { access: 'public' } }, () => ({
    'login.v1': {
      client: TERRAFORM_CLIENT_ID,
      grant_types: ['authz_code'],
      authz: '/ui/terraform/oauth2/authorize',
      token: TOKEN_PATH,
      ports: [...TERRAFORM_LOGIN_PORTS],
    },
    'modules.v1': TERRAFORM_REGISTRY_PATHS.modules,
    'providers.v1': TERRAFORM_REGISTRY_PATHS.providers,
  }));

  app.post(
    TOKEN_PATH,
    {
      config: { access: 'public', ownCredential: () => true },
      errorHandler: oauthErrorHandler,
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      if (body.client_id !== TERRAFORM_CLIENT_ID) throw new OAuthError('invalid_client', 'Unknown client.');
      if (body.grant_type !== 'authorization_code') {
        throw new OAuthError('unsupported_grant_type', 'Only the authorization_code grant is supported.');
      }
      const answer = await exchangeCode(request, await terraformClient(app.db), body);
      return reply.header('cache-control', 'no-store').send(answer);
    },
  );
};
