import { z } from 'zod';
import { licenseEditionSchema } from './license.js';
import { ERROR_MESSAGES } from './errors.js';

/**
 * License buckets (spec part 1 §2 license_management/license_buckets, §3, §5; part 2 §7.7, §8.3,
 * §9): a signed document holding N license keys of one edition, for one customer, with issue and
 * expiry dates. The management deployment keeps buckets, attaches their licenses to the
 * deployments of the fleet (installed there over the pairing channel), splits them for teams and
 * reports who uses what.
 */

/** Bucket files are JSON and smaller than 13 MB (spec part 2 §9). */
export const LICENSE_BUCKET_FILE_MAX_BYTES = 13 * 1024 * 1024;

/** A bucket holds at most this many licenses (one per node of each deployment). */
export const LICENSE_BUCKET_MAX_SIZE = 1000;

export const LICENSE_BUCKET_MESSAGES = {
  added: 'Successfully added bucket',
  removed: 'Successfully removed bucket',
  fetchFailed: 'Unable to fetch License Buckets',
  nameRule: 'Name can only contain alphanumeric characters, dashes and periods.',
  mandatory: ERROR_MESSAGES.mandatory,
  fileExtension: 'File should have an extension of .json',
  fileSize: 'File size should be less than 13 MB',
  tooMany: 'Licenses to be applied is more than the available number of licenses in the bucket.',
  valueTooHigh: 'Value too high',
  decimal: 'Decimal not allowed',
  onlineOnly: 'Only platform deployments with status Online and Partial are listed.',
  oneSource: 'Give the bucket as a file, a URL, a signed URL or a key: one of them.',
  invalid: 'Your bucket file could not be used. Please verify that the file is correct and that the key is valid.',
  expired: 'The bucket has expired: its licenses can no longer be attached.',
  /** {name} is replaced. */
  nameTaken: "Name '{name}' already exists",
  /** {name} is replaced. */
  alreadyAdded: "This bucket was added already, as '{name}'.",
  notFound: 'No such license bucket.',
  unreachable: 'The bucket could not be fetched from that address.',
  notEligible: 'Licenses can be attached only to platform deployments that are Online or Partial.',
  unknownDeployment: 'The deployment is not registered.',
  splitOfSplit: 'A split bucket cannot be split again: split its parent.',
  splitSize: 'A split takes at least one license and leaves the bucket at least one.',
  deleteParent: 'Deleting this bucket deletes all its licenses and split buckets.',
  deleteSplit: 'Deleting this split bucket re-adds its licenses to the parent bucket from the mission-control service.',
  attachFailed: 'The deployment did not take the licenses.',
} as const;

const mandatory = z.string().trim().min(1, LICENSE_BUCKET_MESSAGES.mandatory);

export const licenseBucketNameSchema = mandatory.max(64).regex(/^[A-Za-z0-9._-]+$/, LICENSE_BUCKET_MESSAGES.nameRule);

/**
 * The signed part of a bucket. `licenses` are license keys (`ARCA-LICENSE-1…`), each signed on its
 * own, so that a deployment verifies what it is given without knowing about buckets. `parent` names
 * the bucket a split was taken from.
 */
export const licenseBucketDocumentSchema = z.object({
  version: z.literal(1),
  id: z.string().min(1).max(100),
  edition: licenseEditionSchema.exclude(['NONE']),
  licensee: z.string().min(1).max(200),
  issuedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  issuer: z.string().regex(/^[0-9a-f]{16}$/),
  parent: z.string().min(1).max(100).nullable(),
  licenses: z.array(z.string().min(1).max(8192)).min(1).max(LICENSE_BUCKET_MAX_SIZE),
});
export type LicenseBucketDocument = z.infer<typeof licenseBucketDocumentSchema>;

/** Add a bucket: a name plus exactly one of a file, a URL, a signed URL or a key. */
export const licenseBucketAddSchema = z
  .object({
    name: licenseBucketNameSchema,
    file: z.object({ name: mandatory.max(255), content: z.string().max(LICENSE_BUCKET_FILE_MAX_BYTES * 2) }).optional(),
    url: z.string().trim().max(4096).optional(),
    signed_url: z.string().trim().max(8192).optional(),
    key: z.string().trim().max(LICENSE_BUCKET_FILE_MAX_BYTES).optional(),
  })
  .superRefine((body, ctx) => {
    const given = [body.file, body.url, body.signed_url, body.key].filter((v) => v !== undefined && v !== '');
    if (given.length !== 1) ctx.addIssue({ code: 'custom', message: LICENSE_BUCKET_MESSAGES.oneSource, path: [] });
  });
export type LicenseBucketAdd = z.infer<typeof licenseBucketAddSchema>;

const count = z
  .number({ error: LICENSE_BUCKET_MESSAGES.mandatory })
  .int(LICENSE_BUCKET_MESSAGES.decimal)
  .min(1, LICENSE_BUCKET_MESSAGES.mandatory)
  .max(LICENSE_BUCKET_MAX_SIZE, LICENSE_BUCKET_MESSAGES.valueTooHigh);

/** Attach licenses to deployments: one entry per deployment (`jpd_id`, `license_count` as the REST API names them). */
export const licenseAttachSchema = z.object({
  targets: z
    .array(z.object({ jpd_id: mandatory.max(64), license_count: count }))
    .min(1, LICENSE_BUCKET_MESSAGES.mandatory)
    .max(200),
});
export type LicenseAttach = z.infer<typeof licenseAttachSchema>;

export const licenseSplitSchema = z.object({ name: licenseBucketNameSchema, quantity: count });
export type LicenseSplit = z.infer<typeof licenseSplitSchema>;

/** Licenses taken for something that is not a registered deployment: counted as unknown usage. */
export const licenseAcquireSchema = z.object({ name: mandatory.max(200), license_count: count });

export const licenseBucketSchema = z.object({
  id: z.string(),
  name: z.string(),
  license_type: z.string(),
  customer: z.string(),
  issued: z.string(),
  expires: z.string(),
  expired: z.boolean(),
  size: z.number().int(),
  used: z.number().int(),
  available: z.number().int(),
  projects: z.number().int(),
  parent: z.object({ id: z.string(), name: z.string() }).nullable(),
  splits: z.array(z.object({ id: z.string(), name: z.string(), size: z.number().int() })),
  source: z.enum(['file', 'url', 'signed_url', 'key', 'split']),
  added: z.string(),
  added_by: z.string(),
});
export type LicenseBucket = z.infer<typeof licenseBucketSchema>;

/** A deployment as a bucket sees it: what it holds from the bucket and what it reported last. */
export const licenseBucketDeploymentSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  eligible: z.boolean(),
  nodes: z.number().int(),
  projects: z.number().int(),
  /** Licenses of this bucket attached to it. */
  attached: z.number().int(),
  /** Of those, how many it reported installed when last looked at. */
  installed: z.number().int(),
  /** What the attach panel proposes: enough for each node, at least one when it holds none. */
  suggested: z.number().int(),
});

export const licenseUsagePointSchema = z.object({ day: z.string(), max_used: z.number().int() });

export const licenseBucketStatusSchema = licenseBucketSchema.extend({
  deployments: z.array(licenseBucketDeploymentSchema),
  unknown_usage: z.array(z.object({ name: z.string(), count: z.number().int(), reason: z.string() })),
  usage: z.array(licenseUsagePointSchema),
  max_used: z.number().int(),
});
export type LicenseBucketStatus = z.infer<typeof licenseBucketStatusSchema>;

/** The License Update Output: each target's result. */
export const licenseAttachResultSchema = z.object({
  results: z.array(
    z.object({
      jpd_id: z.string(),
      name: z.string(),
      success: z.boolean(),
      license_count: z.number().int(),
      message: z.string(),
    }),
  ),
});
export type LicenseAttachResult = z.infer<typeof licenseAttachResultSchema>;

/** The file a bucket is downloaded as, and read from: readable fields plus the signed key. */
export const licenseBucketFileSchema = z.object({
  identifier: z.string(),
  name: z.string().optional(),
  license_type: z.string().optional(),
  subject: z.string().optional(),
  issued_date: z.string().optional(),
  valid_date: z.string().optional(),
  quantity: z.number().optional(),
  key: z.string(),
});
