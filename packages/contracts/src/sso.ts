import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Single sign-on through OpenID Connect providers (Keycloak, Okta, Entra ID, Google, GitLab): the
 * authorisation code flow with PKCE, state and nonce; the ID token's signature, issuer and
 * audience verified. Users made by a provider have the realm `oauth` (spec part 1 §3).
 */
export const OAUTH_REALM = 'oauth';

export const OIDC_MESSAGES = {
  nameInvalid: 'The name starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {name} is replaced. */
  nameTaken: "A provider named '{name}' exists already.",
  /** {name} is replaced. */
  notFound: "There is no identity provider '{name}'.",
  issuerInvalid: 'The issuer is an https:// URL (http:// only for a provider on this machine).',
  mappingInvalid: 'Each line maps a group the provider names to an Arca group: provider-group = arca-group.',
  /** {group} is replaced. */
  unknownGroup: "There is no Arca group '{group}'.",
  /** {issuer}, {reason} are replaced. */
  discoveryFailed: 'The provider at {issuer} could not be discovered: {reason}',
  requestUnknown: 'The sign-in request is unknown, expired or was used already. Sign in again.',
  /** {reason} is replaced. */
  tokenRefused: 'The identity provider’s answer was refused: {reason}',
  /** {claim} is replaced. */
  claimMissing: "The identity provider sent no '{claim}' claim to name the user.",
  /** {name} is replaced. */
  nameOfLocalUser: "The user name '{name}' belongs to a user of another realm; an administrator must resolve it.",
  noAutoCreate: 'The identity provider knows you, but Arca creates no users for it: ask an administrator to add you.',
  /** {error} is replaced. */
  providerError: 'The identity provider refused the sign-in: {error}',
  /** {name} is replaced. */
  nameOfOtherSubject:
    "The user name '{name}' belongs to another account of this identity provider; an administrator must rename or delete it.",
  /** {name} is replaced. */
  accountNotLinked:
    "The account '{name}' was made before accounts were tied to the provider's subject; an administrator must delete it once, and the next sign-in makes it anew.",
} as const;

export const oidcProviderBodySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, OIDC_MESSAGES.nameInvalid),
  /** What the login page's button says: "Sign in with {displayName}". */
  displayName: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(64),
  enabled: z.boolean().default(true),
  issuerUrl: z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          url.protocol === 'https:' ||
          (url.protocol === 'http:' && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname))
        );
      } catch {
        return false;
      }
    }, OIDC_MESSAGES.issuerInvalid),
  clientId: z.string().trim().min(1, ERROR_MESSAGES.mandatory).max(256),
  /** Write only: left out keeps the stored one. */
  clientSecret: z.string().max(1024).optional(),
  scopes: z.string().trim().max(512).default('openid profile email'),
  usernameClaim: z.string().trim().min(1).max(64).default('preferred_username'),
  emailClaim: z.string().trim().max(64).default('email'),
  groupsClaim: z.string().trim().max(64).default('groups'),
  /** `provider-group = arca-group`, one per line: the memberships that follow the provider at each sign-in. */
  groupMapping: z.string().max(16_384).default(''),
  autoCreateUser: z.boolean().default(true),
});
export type OidcProviderBody = z.input<typeof oidcProviderBodySchema>;

export const oidcProviderSchema = oidcProviderBodySchema.omit({ clientSecret: true }).extend({
  clientSecretSet: z.boolean(),
  /** The redirect URI to register at the provider. */
  redirectUri: z.string(),
});
export type OidcProvider = z.infer<typeof oidcProviderSchema>;

/** A provider as the login page offers it (`GET /ui/oauth2/loginRequestPlatform`). */
export const loginProviderSchema = z.object({
  name: z.string(),
  displayName: z.string(),
  type: z.enum(['oidc', 'saml', 'http']),
  /** Where the browser goes to sign in. */
  url: z.string(),
});
export type LoginProvider = z.infer<typeof loginProviderSchema>;

/** Turning one provider into the way in: the login page sends everyone to it (`?local=true` reaches the form). */
export const ssoSettingsSchema = z.object({ autoRedirectProvider: z.string().default('') });
export type SsoSettings = z.infer<typeof ssoSettingsSchema>;

/** Users made by a SAML identity provider have this realm. */
export const SAML_REALM = 'saml';

export const SAML_MESSAGES = {
  /** {name} is replaced. */
  notFound: "There is no SAML identity provider '{name}'.",
  /** {name} is replaced. */
  nameTaken: "A provider named '{name}' exists already.",
  metadataMissing: "Give the identity provider's metadata: its URL or the XML.",
  /** {name} is replaced. */
  signingKeyInvalid:
    "The key pair '{name}' is no RSA key pair of Keys Management: authentication requests are signed with an RSA key.",
  /** {reason} is replaced. */
  metadataUnreadable: "The identity provider's metadata could not be read: {reason}",
  metadataIncomplete:
    'The metadata names no single sign-on service with the HTTP-Redirect binding, or no signing certificate.',
  /** {reason} is replaced. */
  responseRefused: 'The identity provider’s SAML response was refused: {reason}',
  /** {attribute} is replaced. */
  attributeMissing: "The SAML assertion has no '{attribute}' to name the user.",
  baseUrlRequired:
    "SAML sign-in needs this deployment's address: set the Custom URL Base in General Settings (or ARCA_BASE_URL). An address taken from the request would let an assertion made for another deployment in.",
  /** {found}, {expected} are replaced. */
  wrongRecipient: 'it was sent to {found}, not to this deployment ({expected}).',
  replayed: 'this assertion was used already.',
} as const;

export const samlProviderBodySchema = z.object({
  name: oidcProviderBodySchema.shape.name,
  displayName: oidcProviderBodySchema.shape.displayName,
  enabled: z.boolean().default(true),
  /** Where the metadata is read from (again at each save); or `metadataXml` given as is. */
  metadataUrl: z.string().trim().max(2048).default(''),
  metadataXml: z.string().max(262_144).default(''),
  /** The assertion's attribute naming the user; empty: the NameID. */
  usernameAttribute: z.string().trim().max(256).default(''),
  emailAttribute: z.string().trim().max(256).default('email'),
  groupsAttribute: z.string().trim().max(256).default('groups'),
  groupMapping: z.string().max(16_384).default(''),
  /** The whole response must be signed too, not only its assertion. */
  wantResponseSigned: z.boolean().default(false),
  /**
   * An RSA key pair of Keys Management that signs the authentication requests (the identity
   * provider then knows they come from Arca); empty: they go unsigned.
   */
  signingKeyPair: z.string().trim().max(64).default(''),
  autoCreateUser: z.boolean().default(true),
});
export type SamlProviderBody = z.input<typeof samlProviderBodySchema>;

export const samlProviderSchema = samlProviderBodySchema.extend({
  /** What the metadata said. */
  idpEntityId: z.string(),
  ssoUrl: z.string(),
  logoutUrl: z.string(),
  certificates: z.number(),
  /** Arca's side, to give the identity provider. */
  spEntityId: z.string(),
  acsUrl: z.string(),
  spMetadataUrl: z.string(),
});
export type SamlProvider = z.infer<typeof samlProviderSchema>;

/**
 * HTTP single sign-on (`/auth/http-sso-login`): a reverse proxy in front of Arca authenticates
 * (Kerberos, a company portal) and names the user in a header; Arca trusts that header only from
 * the proxies listed.
 */
export const HTTP_SSO_REALM = 'http-sso';

export const HTTP_SSO_MESSAGES = {
  off: 'HTTP single sign-on is not turned on.',
  /** {ip} is replaced. */
  untrusted: 'The request did not come through a trusted proxy ({ip}).',
  /** {header} is replaced. */
  headerMissing: "The proxy named no user in the '{header}' header.",
  proxiesMissing: 'Name at least one trusted proxy address.',
  headerInvalid: 'The header is a name of letters, digits, dashes and underscores.',
  /** {name} is replaced. */
  otherRealm: "The user '{name}' does not sign in through HTTP single sign-on.",
  /** {name} is replaced. */
  secondFactor: "The user '{name}' has a second factor enrolled: sign in with the password and the code.",
  /** {name} is replaced. */
  administrator: "The user '{name}' is an administrator; HTTP single sign-on does not sign in administrators.",
} as const;

export const httpSsoSettingsSchema = z.object({
  enabled: z.boolean().default(false),
  header: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]+$/, HTTP_SSO_MESSAGES.headerInvalid)
    .default('REMOTE_USER'),
  /** Addresses (or CIDR ranges) of the proxies whose header is believed. */
  trustedProxies: z.array(z.string().trim().min(1)).max(50).default([]),
  autoCreateUser: z.boolean().default(true),
  /** Whether the proxy's header may sign in an administrator (off: administrators sign in with their password). */
  allowAdministrators: z.boolean().default(false),
});
export type HttpSsoSettings = z.infer<typeof httpSsoSettingsSchema>;
