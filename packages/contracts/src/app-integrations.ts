import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Application integrations (spec part 1 §2 "Application integrations form", part 2 §7.12, §8.4):
 * third-party applications registered as OAuth 2.0 clients that act on users' behalf. Arca is
 * their authorisation server: the authorisation code flow with PKCE (S256), a consent page in the
 * console, access tokens scoped like any other.
 */
export const APP_INTEGRATION_MESSAGES = {
  created: 'Successfully created integration',
  deleted: 'Successfully deleted integration',
  secretOnce: 'The secret is shown once and not retrievable later: copy it now.',
  deleteConfirm:
    'The integration is deleted permanently: the application can no longer sign users in, and every token issued to it stops working.',
  mandatory: ERROR_MESSAGES.mandatory,
  nameRule: 'Name cannot contain spaces or special characters',
  callbackUrl: 'The callback URL must be an absolute http or https address.',
  baseUrl: 'The platform base URL must be an absolute http or https address.',
  nameTaken: 'An application integration of that name exists already.',
  notFound: 'No such application integration.',
  callbackMismatch: "The application's redirect address is not the callback URL registered for it.",
  otherUser: 'Users authorise applications for themselves only.',
  badRequest: 'The authorisation request is not valid.',
  noGrant: 'This user has not authorised that application.',
  revoked: 'The authorisation was revoked.',
} as const;

/** Types of applications that may be registered (the form's Application Type). */
export const APP_INTEGRATION_TYPES = [
  { id: 'web', name: 'Web application' },
  { id: 'native', name: 'Native or command-line application' },
  { id: 'ide', name: 'IDE plugin' },
  { id: 'ci', name: 'CI/CD service' },
] as const;
export type AppIntegrationType = (typeof APP_INTEGRATION_TYPES)[number]['id'];

const httpUrl = (message: string) =>
  z
    .string()
    .trim()
    .min(1, APP_INTEGRATION_MESSAGES.mandatory)
    .max(2048)
    .refine((value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, message);

export const appIntegrationBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, APP_INTEGRATION_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, APP_INTEGRATION_MESSAGES.nameRule),
  type: z.enum(APP_INTEGRATION_TYPES.map((t) => t.id) as [AppIntegrationType, ...AppIntegrationType[]]),
  description: z.string().trim().max(1024).default(''),
  callbackUrl: httpUrl(APP_INTEGRATION_MESSAGES.callbackUrl),
  platformBaseUrl: httpUrl(APP_INTEGRATION_MESSAGES.baseUrl),
});
export type AppIntegrationBody = z.input<typeof appIntegrationBodySchema>;

export const appIntegrationSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  callbackUrl: z.string(),
  platformBaseUrl: z.string(),
  clientId: z.string(),
  created: z.string(),
  createdBy: z.string(),
  /** Users who authorised it. */
  users: z.number().int(),
});
export type AppIntegration = z.infer<typeof appIntegrationSchema>;

/** What creation answers: the client's credentials, the secret only this once. */
export const appIntegrationCreatedSchema = appIntegrationSchema.extend({ secret: z.string() });
export type AppIntegrationCreated = z.infer<typeof appIntegrationCreatedSchema>;

/** What the consent page shows of an application. */
export const appClientSchema = z.object({
  clientId: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  callbackUrl: z.string(),
});

export const userAuthorizationSchema = z.object({
  username: z.string(),
  client_id: z.string(),
  name: z.string(),
  granted: z.string(),
});
export type UserAuthorization = z.infer<typeof userAuthorizationSchema>;

/** The scope an application receives when it asks for none: the user's own permissions. */
export const OAUTH_DEFAULT_SCOPE = 'applied-permissions/user';
/** Seconds an authorisation code lives. */
export const OAUTH_CODE_SECONDS = 300;

/**
 * Terraform CLI login (spec part 1 §2 terraform.oauth2.authorize, part 2 §7.16, §8.2): Terraform's
 * own OAuth client (public, PKCE), its local redirect listener on one of these ports.
 */
export const TERRAFORM_CLIENT_ID = 'terraform-cli';
export const TERRAFORM_LOGIN_PORTS = [10000, 10010] as const;
export const TERRAFORM_MESSAGES = {
  /** {name} is replaced by the user's name. */
  before:
    'This page indicates that you ran the Terraform Login command from the Terraform CLI. Proceed to grant Terraform CLI access to the artifact repository on behalf of {name}.',
  after: 'Close this page and return to the Terraform CLI to see the result of the login process.',
  error:
    'Failed to grant authorization to the Terraform CLI. Retry running the terraform login command from the terminal.',
  redirect:
    "Terraform's redirect address must be its local listener: http://localhost:<port>/login, port 10000 to 10010.",
} as const;

export const terraformAuthorizeQuerySchema = z.object({
  client_id: z.string().max(64),
  code_challenge: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
  code_challenge_method: z.literal('S256'),
  redirect_uri: z.string().max(256),
  response_type: z.literal('code'),
  state: z.string().max(512).optional(),
});

/** Terraform's registry protocols, as service discovery names them (served from terraform repositories). */
export const TERRAFORM_REGISTRY_PATHS = {
  modules: '/artifactory/api/terraform/v1/modules/',
  providers: '/artifactory/api/terraform/v1/providers/',
} as const;
