import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/** Licence editions and their ranks, exactly as the console specification lists them. */
export const LICENSE_EDITION_RANKS = {
  NONE: 0,
  OSS: 1,
  CONAN: 1,
  JCR: 1,
  COMMERCIAL: 2,
  COMMERCIAL_X: 2,
  TRIAL: 3,
  EDGE: 4,
  EDGE_TRIAL: 4,
  ENTERPRISE: 4,
  ENTERPRISE_X: 4,
  ENTERPRISE_PLUS_TRIAL: 5,
  ENTERPRISE_PLUS: 5,
} as const;

export type LicenseEdition = keyof typeof LICENSE_EDITION_RANKS;

export const LICENSE_EDITIONS = Object.keys(LICENSE_EDITION_RANKS) as LicenseEdition[];

export const licenseEditionSchema = z.enum(LICENSE_EDITIONS as [LicenseEdition, ...LicenseEdition[]]);

/** Human label of an edition, as shown in the footer and on the licences page. */
export const LICENSE_EDITION_LABELS: Record<LicenseEdition, string> = {
  NONE: 'N/A',
  OSS: 'Open Source',
  CONAN: 'Conan',
  JCR: 'Container Registry',
  COMMERCIAL: 'Pro',
  COMMERCIAL_X: 'Pro X',
  TRIAL: 'Trial',
  EDGE: 'Edge',
  EDGE_TRIAL: 'Edge Trial',
  ENTERPRISE: 'Enterprise',
  ENTERPRISE_X: 'Enterprise X',
  ENTERPRISE_PLUS_TRIAL: 'Enterprise+ Trial',
  ENTERPRISE_PLUS: 'Enterprise+',
};

/** Rank of an edition; an unknown edition or none ranks 0. */
export function licenseRank(edition: string | null | undefined): number {
  if (!edition) return 0;
  return (LICENSE_EDITION_RANKS as Record<string, number>)[edition] ?? 0;
}

/**
 * The signed part of a licence key. Dates are ISO-8601 instants; `expiresAt` null means the
 * licence never expires. `issuer` is the key id (see `licenseIssuerKeyId`) of the signing key.
 */
export const licenseDocumentSchema = z.object({
  version: z.literal(1),
  id: z.string().min(1).max(100),
  edition: licenseEditionSchema.exclude(['NONE']),
  licensee: z.string().min(1).max(200),
  issuedAt: z.iso.datetime(),
  expiresAt: z.iso.datetime().nullable(),
  issuer: z.string().regex(/^[0-9a-f]{16}$/),
});
export type LicenseDocument = z.infer<typeof licenseDocumentSchema>;

/** Body of the licence installation call: the key text as pasted or read from a .json file. */
export const installLicenseBodySchema = z.object({
  licenseKey: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64 * 1024),
});
export type InstallLicenseBody = z.infer<typeof installLicenseBodySchema>;

/** The licence in force, as the console's licences page shows it. */
export const licenseInfoSchema = z.object({
  edition: licenseEditionSchema,
  rank: z.number().int(),
  status: z.enum(['VALID', 'EXPIRED', 'NONE']),
  licensee: z.string().nullable(),
  id: z.string().nullable(),
  issuedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  issuer: z.string().nullable(),
  installedAt: z.string().nullable(),
  installedBy: z.string().nullable(),
  /** Licences in force: one, or one per node when they came from a bucket. */
  count: z.number().int(),
});
export type LicenseInfo = z.infer<typeof licenseInfoSchema>;

export const LICENSE_MESSAGES = {
  malformed: 'The license key is malformed. Paste the whole key as issued, or upload the .json file that holds it.',
  badSignature: 'The license key signature is not valid, or it was not signed by a trusted issuer.',
  expired: 'The license key has expired.',
  installed: 'The license was installed.',
  fileExtension: 'File should have an extension of .json',
  mixed: 'Licenses installed together must be of one edition and one licensee.',
  /** Artifactory's answer to an installation. */
  installedRest: 'The license has been successfully installed.',
} as const;

/** One licence in force, as Artifactory's `GET /api/system/licenses` lists them (one per node). */
export const restLicenseSchema = z.object({
  type: z.string(),
  validThrough: z.string(),
  licensedTo: z.string(),
  licenseHash: z.string(),
  nodeId: z.string(),
  nodeUrl: z.string(),
  expired: z.boolean(),
});

/** `GET /artifactory/api/system/licenses`: the licences in force; `arca` adds what a management deployment counts. */
export const restLicensesSchema = z.object({
  licenses: z.array(restLicenseSchema),
  arca: z.object({ nodes: z.number().int(), projects: z.number().int(), ids: z.array(z.string()) }),
});
export type RestLicenses = z.infer<typeof restLicensesSchema>;

const restKeySchema = z.object({
  licenseKey: z
    .string()
    .trim()
    .min(1)
    .max(64 * 1024),
});
const restKeysSchema = z.array(restKeySchema).min(1).max(1000);

/** `POST /artifactory/api/system/licenses`: one key, or several for a deployment's nodes. */
export const restInstallLicensesSchema = z.union([
  restKeySchema,
  z.object({ licenses: restKeysSchema }),
  restKeysSchema,
]);

/** Edition groups used by the footer's default logo choice. */
export function licenseLogoGroup(edition: string | null | undefined): 'jcr' | 'conan' | 'edge' | 'oss' | 'default' {
  switch (edition) {
    case 'JCR':
      return 'jcr';
    case 'CONAN':
      return 'conan';
    case 'EDGE':
    case 'EDGE_TRIAL':
      return 'edge';
    case 'OSS':
      return 'oss';
    default:
      return 'default';
  }
}
