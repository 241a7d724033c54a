import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/*
 * Webhooks: subscriptions in the shape of JFrog's Event service API (`/event/api/v1/subscriptions`),
 * so that scripts and Terraform configurations written for it work unchanged, and the delivery
 * log Arca keeps of each one.
 */

/** Each domain with the event types Arca produces in it. */
export const WEBHOOK_DOMAINS = {
  artifact: ['deployed', 'deleted', 'moved', 'copied', 'cached'],
  artifact_property: ['added', 'deleted'],
  docker: ['pushed', 'deleted'],
  build: ['uploaded', 'deleted', 'promoted'],
  repository: ['created', 'updated', 'deleted'],
  user: ['created', 'updated', 'deleted'],
  release_bundle: ['created', 'signed', 'deleted'],
  artifactory_release_bundle: ['received', 'deleted'],
  distribution: [
    'distribute_started',
    'distribute_completed',
    'distribute_aborted',
    'distribute_failed',
    'delete_started',
    'delete_completed',
    'delete_failed',
  ],
  destination: ['received', 'delete_completed'],
  security: ['violation_detected'],
} as const;
export type WebhookDomain = keyof typeof WEBHOOK_DOMAINS;
export const WEBHOOK_DOMAIN_NAMES = Object.keys(WEBHOOK_DOMAINS) as WebhookDomain[];

/** How the console names domains and their events. */
export const WEBHOOK_DOMAIN_LABELS: Record<WebhookDomain, string> = {
  artifact: 'Artifact',
  artifact_property: 'Artifact property',
  docker: 'Docker tag',
  build: 'Build',
  repository: 'Repository',
  user: 'User',
  release_bundle: 'Release bundle',
  artifactory_release_bundle: 'Release bundle received',
  distribution: 'Distribution',
  destination: 'Distribution target',
  security: 'Security violation',
};

/** Domains whose events concern a release bundle: their criteria pick bundles by name. */
export const RELEASE_BUNDLE_DOMAINS: readonly WebhookDomain[] = [
  'release_bundle',
  'artifactory_release_bundle',
  'distribution',
  'destination',
];

/** Domains whose events happen in a repository: their criteria pick repositories and paths. */
export const REPOSITORY_DOMAINS: readonly WebhookDomain[] = ['artifact', 'artifact_property', 'docker', 'repository'];

/** Spec part 1 §5: starts with a letter, then letters, digits, underscore, dash; at least 2 characters. */
export const WEBHOOK_KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]+$/;
export const WEBHOOK_KEY_MAX = 64;

/** What a secret reads as when answered: sent back unchanged, it keeps the stored secret. */
export const WEBHOOK_SECRET_MASK = '**********';

/** The signature header of a body signed with the secret (HMAC-SHA256, hex). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-JFrog-Event-Auth';

/** Spec part 2 §8.7 and the form's messages (part 1 §5). */
export const WEBHOOK_MESSAGES = {
  nameFormat: 'Name cannot contain special characters',
  nameExists: 'This name already exist',
  invalidUrl: 'Enter a valid URL',
  headerIncomplete: 'Header must contain name and value',
  mandatory: ERROR_MESSAGES.mandatory,
  testSent: 'Dummy Webhook was sent successfully',
  testFailed: 'Sending a dummy Webhook failed',
  testUnreachable: 'Request failed, unable to test Webhook',
  notFound: "Webhook '{name}' was not found.",
  eventTypeUnknown: "'{type}' is not an event of the {domain} domain.",
  noEventTypes: 'Choose at least one event.',
  noHandler: 'A webhook needs a URL to send to.',
  proxyUnknown: "There is no proxy '{name}'.",
  repositoryUnknown: "Repository '{name}' does not exist.",
  created: "Webhook '{name}' was created",
  updated: "Webhook '{name}' was updated",
  deleted: "Webhook '{name}' was deleted",
  resent: 'The delivery is sent again',
  resentFailed: '{count} failed deliveries are sent again',
} as const;

export const webhookHeaderSchema = z.object({
  name: z.string().trim().max(256),
  value: z.string().max(4096),
});

/** Where and how a webhook sends: JFrog's `handlers[]` entry. */
export const webhookHandlerSchema = z.object({
  handler_type: z.literal('webhook').default('webhook'),
  url: z
    .string()
    .trim()
    .min(1, WEBHOOK_MESSAGES.invalidUrl)
    .max(2048)
    .refine((url) => {
      try {
        return ['http:', 'https:'].includes(new URL(url).protocol);
      } catch {
        return false;
      }
    }, WEBHOOK_MESSAGES.invalidUrl),
  /** Sent as `X-JFrog-Event-Auth`, or with `use_secret_for_signing` the key of the body's HMAC-SHA256 there. */
  secret: z.string().max(1024).optional(),
  use_secret_for_signing: z.boolean().default(false),
  /** The key of a configured proxy; empty for a direct connection. */
  proxy: z.string().max(128).optional(),
  custom_http_headers: z
    .array(webhookHeaderSchema)
    .default([])
    .refine(
      (headers) => headers.every((h) => h.name.length > 0 && h.value.length > 0),
      WEBHOOK_MESSAGES.headerIncomplete,
    ),
});
export type WebhookHandler = z.infer<typeof webhookHandlerSchema>;

/** Criteria of the domains that happen in repositories. */
export const repositoryCriteriaSchema = z.object({
  anyLocal: z.boolean().default(false),
  anyRemote: z.boolean().default(false),
  anyFederated: z.boolean().default(false),
  repoKeys: z.array(z.string().min(1)).default([]),
  includePatterns: z.array(z.string()).default([]),
  excludePatterns: z.array(z.string()).default([]),
});
export type RepositoryCriteria = z.infer<typeof repositoryCriteriaSchema>;

/** Criteria of the build domain. */
export const buildCriteriaSchema = z.object({
  anyBuild: z.boolean().default(false),
  selectedBuilds: z.array(z.string().min(1)).default([]),
  includePatterns: z.array(z.string()).default([]),
  excludePatterns: z.array(z.string()).default([]),
});
export type BuildCriteria = z.infer<typeof buildCriteriaSchema>;

/** Criteria of the release bundle domains (JFrog's names): any bundle, bundles by name, or patterns of names. */
export const releaseBundleCriteriaSchema = z.object({
  anyReleaseBundle: z.boolean().default(false),
  registeredReleaseBundlesNames: z.array(z.string().min(1)).default([]),
  includePatterns: z.array(z.string()).default([]),
  excludePatterns: z.array(z.string()).default([]),
});
export type ReleaseBundleCriteria = z.infer<typeof releaseBundleCriteriaSchema>;

export const webhookFilterSchema = z
  .object({
    domain: z.enum(WEBHOOK_DOMAIN_NAMES as [WebhookDomain, ...WebhookDomain[]]),
    event_types: z.array(z.string()).min(1, WEBHOOK_MESSAGES.noEventTypes),
    criteria: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((filter, ctx) => {
    const known: readonly string[] = WEBHOOK_DOMAINS[filter.domain];
    for (const type of filter.event_types) {
      if (!known.includes(type))
        ctx.addIssue({
          code: 'custom',
          path: ['event_types'],
          message: WEBHOOK_MESSAGES.eventTypeUnknown.replace('{type}', type).replace('{domain}', filter.domain),
        });
    }
  });

/** A subscription as the Event service API takes it (`POST /event/api/v1/subscriptions`). */
export const webhookSubscriptionSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1, WEBHOOK_MESSAGES.mandatory)
    .max(WEBHOOK_KEY_MAX, WEBHOOK_MESSAGES.nameFormat)
    .regex(WEBHOOK_KEY_PATTERN, WEBHOOK_MESSAGES.nameFormat),
  description: z.string().max(1024).default(''),
  enabled: z.boolean().default(true),
  event_filter: webhookFilterSchema,
  handlers: z.array(webhookHandlerSchema).min(1, WEBHOOK_MESSAGES.noHandler),
});
export type WebhookSubscriptionInput = z.input<typeof webhookSubscriptionSchema>;
export type WebhookSubscription = z.output<typeof webhookSubscriptionSchema>;

/** `PUT /event/api/v1/subscriptions/{key}`: the same body; a `key` in it is ignored. */
export const webhookUpdateSchema = webhookSubscriptionSchema.omit({ key: true }).extend({
  key: z.string().optional(),
});

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** The newest delivery of a webhook, for its row in the list. */
export const webhookLastDeliverySchema = z.object({
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  status: z.number().nullable(),
  at: z.string(),
});

/** A subscription as answered: secrets masked, with Arca's own facts about it. */
export const webhookAnswerSchema = z.object({
  key: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  event_filter: z.object({
    domain: z.string(),
    event_types: z.array(z.string()),
    criteria: z.record(z.string(), z.unknown()),
  }),
  handlers: z.array(
    z.object({
      handler_type: z.literal('webhook'),
      url: z.string(),
      secret: z.string().optional(),
      use_secret_for_signing: z.boolean(),
      proxy: z.string().optional(),
      custom_http_headers: z.array(webhookHeaderSchema),
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
  last_delivery: webhookLastDeliverySchema.nullable(),
});
export type WebhookAnswer = z.infer<typeof webhookAnswerSchema>;

const FILE = { repo_key: 'libs-release-local', path: 'org/acme/app/1.0/app-1.0.jar', name: 'app-1.0.jar' };
const BUNDLE = { release_bundle_name: 'web-app', release_bundle_version: '1.4.0', project_key: 'default' };
const DISTRIBUTION = (type: string, status: string) => ({
  ...BUNDLE,
  type,
  status,
  edge_node_info_list: [{ site_name: 'eu-west', status }],
});

const SHA256 = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const TAG = {
  repo_key: 'docker-local',
  path: 'team/app/1.0/manifest.json',
  name: 'manifest.json',
  size: 1206,
  sha256: SHA256,
  image_name: 'team/app',
  tag: '1.0',
  platforms: [{ architecture: 'amd64', os: 'linux' }],
};

/** What `data` holds for each event type: the example each domain answers with. */
export const WEBHOOK_EXAMPLE_DATA: { [D in WebhookDomain]: Record<(typeof WEBHOOK_DOMAINS)[D][number], object> } = {
  artifact: {
    deployed: { ...FILE, size: 4096, sha256: SHA256 },
    deleted: { ...FILE, size: 4096, sha256: SHA256 },
    moved: {
      ...FILE,
      size: 4096,
      sha256: SHA256,
      source_repo_path: 'libs-staging-local/org/acme/app/1.0/app-1.0.jar',
      target_repo_path: 'libs-release-local/org/acme/app/1.0/app-1.0.jar',
    },
    copied: {
      ...FILE,
      size: 4096,
      sha256: SHA256,
      source_repo_path: 'libs-staging-local/org/acme/app/1.0/app-1.0.jar',
      target_repo_path: 'libs-release-local/org/acme/app/1.0/app-1.0.jar',
    },
    cached: { ...FILE, repo_key: 'maven-remote', size: 4096, sha256: SHA256 },
  },
  artifact_property: {
    added: { ...FILE, size: 4096, sha256: SHA256, property_key: 'qa', property_values: ['passed'] },
    deleted: { ...FILE, size: 4096, sha256: SHA256, property_key: 'qa', property_values: [] },
  },
  docker: { pushed: TAG, deleted: TAG },
  build: {
    uploaded: { build_name: 'web-app', build_number: '42', build_started: '2026-11-20T10:00:00.000+0000' },
    deleted: { build_name: 'web-app', build_number: '42', build_started: '2026-11-20T10:00:00.000+0000' },
    promoted: {
      build_name: 'web-app',
      build_number: '42',
      build_started: '2026-11-20T10:00:00.000+0000',
      status: 'released',
      target_repo: 'libs-release-local',
    },
  },
  repository: {
    created: { repo_key: 'libs-release-local', repo_type: 'local', package_type: 'maven' },
    updated: { repo_key: 'libs-release-local', repo_type: 'local', package_type: 'maven' },
    deleted: { repo_key: 'libs-release-local', repo_type: 'local' },
  },
  user: { created: { name: 'ann' }, updated: { name: 'ann' }, deleted: { name: 'ann' } },
  release_bundle: {
    created: { ...BUNDLE, release_bundle_size: 12 },
    signed: { ...BUNDLE, signing_key: 'release-gpg', key_fingerprint: 'F2C1E7A04D3B9A11' },
    deleted: BUNDLE,
  },
  artifactory_release_bundle: {
    received: { ...BUNDLE, release_bundle_size: 12, source: 'https://arca.example' },
    deleted: { ...BUNDLE, source: 'https://arca.example' },
  },
  distribution: {
    distribute_started: DISTRIBUTION('distribute', 'in progress'),
    distribute_completed: DISTRIBUTION('distribute', 'completed'),
    distribute_aborted: DISTRIBUTION('distribute', 'aborted'),
    distribute_failed: DISTRIBUTION('distribute', 'failed'),
    delete_started: DISTRIBUTION('delete', 'in progress'),
    delete_completed: DISTRIBUTION('delete', 'completed'),
    delete_failed: DISTRIBUTION('delete', 'failed'),
  },
  destination: {
    received: { ...BUNDLE, source: 'https://arca.example' },
    delete_completed: { ...BUNDLE, source: 'https://arca.example' },
  },
  security: {
    violation_detected: {
      watch_name: 'shipping',
      policy_name: 'no-critical',
      rule_name: 'critical',
      type: 'security',
      issue_id: 'GHSA-xxxx-xxxx-xxxx',
      cves: ['CVE-2026-4001'],
      severity: 'Critical',
      summary: 'Remote code execution in left-parse',
      fixed_versions: ['1.0.1'],
      repo_key: 'npm-local',
      path: 'left-parse/-/left-parse-1.0.0.tgz',
      package_type: 'npm',
      package_name: 'left-parse',
      package_version: '1.0.0',
      component: '',
    },
  },
};

/** Each domain with its event types and the body a receiver gets for each (`GET /event/api/v1/domains`). */
export function webhookDomainsAnswer(origin: string) {
  return WEBHOOK_DOMAIN_NAMES.map((domain) => {
    const data = WEBHOOK_EXAMPLE_DATA[domain] as Record<string, Record<string, unknown>>;
    const types: readonly string[] = WEBHOOK_DOMAINS[domain];
    return {
      domain,
      name: WEBHOOK_DOMAIN_LABELS[domain],
      event_types: [...types],
      examples: Object.fromEntries(
        types.map((type) => [
          type,
          {
            event_id: '0193a7c2-5b1e-7c3d-9f00-1a2b3c4d5e6f',
            subscription_key: 'my-webhook',
            domain,
            event_type: type,
            data: data[type]!,
            jpd_origin: origin,
            source: 'arca/admin',
          } satisfies WebhookPayload,
        ]),
      ),
    };
  });
}

/** `GET /event/api/v1/domains`: each domain with its event types and an example body of each. */
export const webhookDomainsAnswerSchema = z
  .array(
    z.object({
      domain: z.string(),
      name: z.string(),
      event_types: z.array(z.string()),
      /** Per event type, the body a receiver gets (ids and addresses as examples). */
      examples: z.record(z.string(), z.record(z.string(), z.unknown())),
    }),
  )
  .meta({ examples: [webhookDomainsAnswer('https://arca.example.com')] });

/** `POST /event/api/v1/subscriptions/test`: what the receiver answered the dummy event. */
export const webhookTestAnswerSchema = z.object({ status: z.number(), message: z.string() });

/** One delivery of an event to a webhook's handler. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  webhookKey: z.string(),
  eventId: z.string(),
  domain: z.string(),
  eventType: z.string(),
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  url: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

const exchangeSchema = z.object({ headers: z.record(z.string(), z.string()), body: z.string() });

/** One attempt of a delivery: the request as sent and the receiver's answer (bodies cut at 16 KiB). */
export const webhookAttemptSchema = z.object({
  id: z.string(),
  attempt: z.number(),
  at: z.string(),
  durationMs: z.number(),
  status: z.number().nullable(),
  error: z.string().nullable(),
  request: exchangeSchema.extend({ url: z.string() }),
  response: exchangeSchema.nullable(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliveriesQuerySchema = z.object({
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
  eventType: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
export type WebhookDeliveriesQuery = z.input<typeof webhookDeliveriesQuerySchema>;

export const webhookDeliveriesPageSchema = z.object({
  total: z.number(),
  deliveries: z.array(webhookDeliverySchema),
});
export type WebhookDeliveriesPage = z.infer<typeof webhookDeliveriesPageSchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema.extend({
  payload: z.string(),
  attemptsLog: z.array(webhookAttemptSchema),
});
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

/** What a webhook receives: JFrog's payload shape, with an id stable across retries. */
export interface WebhookPayload {
  event_id: string;
  subscription_key: string;
  domain: string;
  event_type: string;
  data: Record<string, unknown>;
  jpd_origin: string;
  source: string;
}
