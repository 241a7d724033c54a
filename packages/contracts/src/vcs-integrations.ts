import { z } from 'zod';

/**
 * Source-control integrations (spec part 1 §2 "Integrations page", Git integration modal, §3, §4,
 * §5; part 2 §7.11, §8.4, §9): GitHub, GitLab and Bitbucket accounts Arca connects to, each tested
 * against the vendor's own API with its token before it is kept (the token sealed at rest).
 */
export const VCS_VENDORS = ['github', 'gitlab', 'bitbucket_cloud', 'bitbucket_server'] as const;
export type VcsVendor = (typeof VCS_VENDORS)[number];

/** Vendor codes and integration types (spec part 2 §9). */
export const VCS_VENDOR_CODES: Record<VcsVendor | 'unknown', number> = {
  unknown: 0,
  github: 1,
  gitlab: 2,
  bitbucket_cloud: 3,
  bitbucket_server: 4,
};
export const INTEGRATION_TYPE_CODES = { unknown: 0, git: 1 } as const;

export const VCS_VENDOR_LABELS: Record<VcsVendor, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  bitbucket_cloud: 'Bitbucket Cloud',
  bitbucket_server: 'Bitbucket Server',
};

/** The API base an integration talks to when none is given (enterprise installs give theirs). */
export const VCS_DEFAULT_URLS: Record<VcsVendor, string> = {
  github: 'https://api.github.com',
  gitlab: 'https://gitlab.com',
  bitbucket_cloud: 'https://api.bitbucket.org',
  bitbucket_server: '',
};

/** The platform services an integration can serve (step 2 of the Git modal). */
export const VCS_SERVICES = [
  { name: 'xray', label: 'Security & Compliance (repository scanning)' },
  { name: 'pipelines', label: 'Pipelines' },
] as const;
export type VcsService = (typeof VCS_SERVICES)[number]['name'];

/** Integration card size (spec part 2 §9). */
export const INTEGRATION_CARD_SIZE = { width: 204, height: 218 } as const;

export const VCS_MESSAGES = {
  testFailed: 'Connection test failed, please check your credentials',
  testOk: 'Connection test succeeded',
  /** {key} is replaced. */
  created: 'Successfully created {key}',
  createFailed: 'Error while creating integration',
  /** {name} is replaced. */
  updated: 'Successfully updated {name}',
  updateFailed: 'Error while updating integration',
  /** {name} is replaced. */
  deleted: 'Successfully deleted {name}',
  deleteFailed: 'Error while deleting integration',
  userName: 'User name is required',
  token: 'Token is required',
  integrationName: 'Integration name is required',
  nameRule: 'Name cannot contain spaces or special characters',
  url: 'Give the API address as an absolute http or https URL.',
  nameTaken: 'An integration of that name exists already.',
  notFound: 'No such integration.',
  serviceMissing: 'This service is not installed in this deployment.',
  connectService: 'Connect a service',
} as const;

const url = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    if (value === '') return true;
    try {
      return ['http:', 'https:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, VCS_MESSAGES.url);

/** The Git form (spec part 1 §3): vendor plus user name, token, integration name and key, URL, type. */
export const vcsIntegrationFormSchema = z.object({
  vendorName: z.enum(VCS_VENDORS),
  userName: z.string().trim().min(1, VCS_MESSAGES.userName).max(256),
  /** Empty on an edit that keeps the stored token. */
  token: z.string().trim().max(4096).default(''),
  integrationName: z
    .string()
    .trim()
    .min(1, VCS_MESSAGES.integrationName)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, VCS_MESSAGES.nameRule),
  integrationKey: z.string().trim().max(64).optional(),
  url,
  integrationType: z.number().int().default(INTEGRATION_TYPE_CODES.git),
});
export type VcsIntegrationForm = z.input<typeof vcsIntegrationFormSchema>;

export const vcsTestResultSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  login: z.string().optional(),
});
export type VcsTestResult = z.infer<typeof vcsTestResultSchema>;

export const vcsIntegrationSchema = z.object({
  key: z.string(),
  name: z.string(),
  vendorName: z.enum(VCS_VENDORS),
  vendor: z.number().int(),
  url: z.string(),
  userName: z.string(),
  products: z.array(z.string()),
  updatedOn: z.string(),
  createdOn: z.string(),
});
export type VcsIntegration = z.infer<typeof vcsIntegrationSchema>;

export const vcsProductsSchema = z.object({ products: z.array(z.enum(['xray', 'pipelines'])).max(2) });

/** A card of the integrations grid. */
export const integrationCardSchema = z.object({
  key: z.string(),
  name: z.string(),
  vendor: z.number().int(),
  integrations: z.number().int(),
  connected: z.boolean(),
  configured: z.boolean(),
  configuredServices: z.array(
    z.object({
      serviceName: z.string(),
      connected: z.boolean(),
      disabled: z.boolean(),
      connections: z.number().int(),
    }),
  ),
});
export type IntegrationCard = z.infer<typeof integrationCardSchema>;

export const integrationGroupSchema = z.object({
  type: z.string(),
  available: z.boolean(),
  items: z.array(integrationCardSchema),
});
export type IntegrationGroup = z.infer<typeof integrationGroupSchema>;
