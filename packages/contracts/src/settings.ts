import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * General settings (`/admin/configuration/general`, spec part 1 §3 General config and Reverse
 * proxy settings) and the HTTP proxies outbound requests go through
 * (`/admin/proxies/configuration`, items of `ui/proxies`).
 */

/** Date formats the console offers (dayjs tokens); empty: the browser's own. */
export const DATE_FORMATS = [
  'DD-MM-YY HH:mm:ss Z',
  'YYYY-MM-DD HH:mm:ss',
  'DD/MM/YYYY HH:mm:ss',
  'MM/DD/YYYY hh:mm:ss A',
  'D MMM YYYY, HH:mm',
] as const;

/** Methods of serving Docker behind a reverse proxy, as Artifactory names them. */
export const DOCKER_REVERSE_PROXY_METHODS = ['REPOPATHPREFIX', 'SUBDOMAIN', 'PORTPERREPO'] as const;
export const DOCKER_REVERSE_PROXY_LABELS: Record<(typeof DOCKER_REVERSE_PROXY_METHODS)[number], string> = {
  REPOPATHPREFIX: 'Repository Path',
  SUBDOMAIN: 'Sub Domain',
  PORTPERREPO: 'Port',
};

/** Largest logo accepted, in bytes. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/svg+xml', 'image/webp'] as const;

export const SETTINGS_MESSAGES = {
  urlInvalid: 'Enter a valid URL.',
  serverNameInvalid: 'The server name may hold letters, digits, spaces, dots, dashes and underscores only.',
  hostInvalid: 'Enter a host name (letters, digits, dots and dashes).',
  portInvalid: 'Enter a port between 1 and 65535.',
  /** {port} is replaced. */
  portTaken: 'Port {port} is used twice.',
  /** {key} is replaced. */
  repositoryUnknown: "There is no repository '{key}'.",
  noScheme: 'Choose HTTP, HTTPS or both.',
  logoTooLarge: 'The logo must be smaller than 512 KB.',
  logoType: 'The logo must be a PNG, JPEG, GIF, SVG or WebP image.',
  /** {mb} is replaced. */
  uploadTooLarge: 'The file is larger than the upload limit of {mb} MB (General Settings).',
  noLogo: 'No logo has been uploaded.',
} as const;

const port = z.number().int().min(1, SETTINGS_MESSAGES.portInvalid).max(65535, SETTINGS_MESSAGES.portInvalid);
const hostName = z
  .string()
  .trim()
  .max(253)
  .regex(/^$|^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?$/, SETTINGS_MESSAGES.hostInvalid);

/** Docker served under its own port (PORTPERREPO) or host name (SUBDOMAIN): which repository, where. */
export const reverseProxyRepositorySchema = z.object({
  repoKey: z.string().min(1, ERROR_MESSAGES.mandatory),
  /** PORTPERREPO: the port this repository listens on at the reverse proxy. */
  port: port.optional(),
});

export const reverseProxySchema = z.object({
  /** The host name clients reach the platform at through the reverse proxy. */
  serverName: hostName.default(''),
  dockerReverseProxyMethod: z.enum(DOCKER_REVERSE_PROXY_METHODS).default('REPOPATHPREFIX'),
  reverseProxyRepositories: z.array(reverseProxyRepositorySchema).max(200).default([]),
  useHttp: z.boolean().default(true),
  useHttps: z.boolean().default(false),
  httpPort: port.default(80),
  httpsPort: port.default(443),
  /** Paths of the certificate and key on the proxy's machine (HTTPS). */
  sslCertificate: z.string().trim().max(1024).default(''),
  sslKey: z.string().trim().max(1024).default(''),
  /** Where the reverse proxy reaches Arca (`http://127.0.0.1:8082` by default). */
  upstream: z.string().trim().max(1024).default(''),
});
export type ReverseProxySettings = z.output<typeof reverseProxySchema>;

export const generalSettingsSchema = z.object({
  /** Shown in page titles ('title - server name'); empty for the default. */
  serverName: z
    .string()
    .trim()
    .max(64)
    .regex(/^[\p{L}\p{N} ._-]*$/u, SETTINGS_MESSAGES.serverNameInvalid)
    .default(''),
  /** The address clients reach the platform at, for links and Set Me Up; empty: what they call. */
  customUrlBase: z.string().trim().max(1024).default(''),
  /** Largest file the console deploys, in MB; 0 for no limit. */
  fileUploadMaxSizeMb: z.number().int().min(0).max(1_048_576).default(100),
  /** How the console writes dates; empty for the browser's own format. */
  dateFormat: z.union([z.enum(DATE_FORMATS), z.literal('')]).default(''),
  /** An image address shown in the footer when no logo is uploaded. */
  logoUrl: z.string().trim().max(2048).default(''),
  reverseProxy: reverseProxySchema.default(reverseProxySchema.parse({})),
  /**
   * Global offline mode: no remote repository asks its upstream (each serves only its cache) and
   * release bundles are not distributed ('global offline mode enabled').
   */
  globalOfflineMode: z.boolean().default(false),
});
export type GeneralSettings = z.output<typeof generalSettingsSchema>;
/** The settings before any are saved. */
export const GENERAL_DEFAULTS: GeneralSettings = generalSettingsSchema.parse({});
export type GeneralSettingsInput = z.input<typeof generalSettingsSchema>;

/** `GET ui/generalConfig`: the settings, whether a logo is uploaded, and the server name in force. */
export const generalConfigAnswerSchema = generalSettingsSchema.extend({
  logoUploaded: z.boolean(),
  /** The server name titles show (the setting, else `ARCA_SERVER_NAME`, else the default). */
  effectiveServerName: z.string(),
  /** The base address in force, or empty when links follow the request. */
  effectiveUrlBase: z.string(),
});
export type GeneralConfigAnswer = z.infer<typeof generalConfigAnswerSchema>;

export const PROXY_MESSAGES = {
  keyInvalid: 'The key starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {key} is replaced. */
  keyTaken: "A proxy named '{key}' exists already.",
  keyChange: 'The key of a proxy cannot be changed.',
  /** {key} is replaced. */
  notFound: "There is no proxy '{key}'.",
  /** {key}, {users} are replaced. */
  inUse: "The proxy '{key}' is used by {users}; choose another proxy there first.",
} as const;

/** An HTTP proxy for outbound requests (remote repositories, webhooks). */
export const proxySchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, PROXY_MESSAGES.keyInvalid),
  host: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(253)
    .regex(/^[^\s/]+$/, SETTINGS_MESSAGES.hostInvalid),
  port,
  username: z.string().max(256).default(''),
  /** Sent on save; never answered. Empty on an edit keeps the stored one. */
  password: z.string().max(1024).default(''),
  /** NTLM: the workstation and domain of the proxy's Windows authentication. */
  ntHost: z.string().trim().max(253).default(''),
  domain: z.string().trim().max(253).default(''),
  /** Used by remote repositories and webhooks that name no proxy. */
  defaultProxy: z.boolean().default(false),
  /** Hosts a redirect may lead to with the proxy's credentials still sent. */
  redirectToHosts: z.array(z.string().trim().min(1).max(253)).max(100).default([]),
});
export type ProxyInput = z.input<typeof proxySchema>;
export type Proxy = z.output<typeof proxySchema>;

export const proxyAnswerSchema = proxySchema.omit({ password: true }).extend({
  passwordSet: z.boolean(),
  /** Remote repositories and webhooks that use this proxy (by name or as the default). */
  usedBy: z.array(z.string()),
});
export type ProxyAnswer = z.infer<typeof proxyAnswerSchema>;
