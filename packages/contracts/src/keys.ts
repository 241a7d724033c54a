import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * Keys Management (`/admin/artifactory/security/keys_management/:label?`): named GPG and RSA key
 * pairs (`ui/security/keyPairs`, spec part 2 §7.16) — generated when no key is given, or imported —
 * verified, their public halves downloadable, a GPG one put to sign repository metadata.
 */
export const KEY_PAIR_TYPES = ['GPG', 'RSA'] as const;
export type KeyPairType = (typeof KEY_PAIR_TYPES)[number];

/** The labels of the Keys Management page's tabs (spec part 1 §2). */
export const KEYS_LABELS = [
  'gpg-rsa-keys',
  'signing-keys',
  'public-keys',
  'java-key-store',
  'certificates',
  'ssh-server',
] as const;

export const KEY_MESSAGES = {
  nameInvalid: 'The name starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {name} is replaced. */
  nameTaken: "A key pair named '{name}' exists already.",
  /** {name} is replaced. */
  notFound: "There is no key pair '{name}'.",
  notPrivateKey: 'The private key is not an armored OpenPGP private key.',
  notRsaKey: 'The private key is not an RSA private key in PEM.',
  wrongPassphrase: 'The passphrase does not open the private key.',
  publicMismatch: 'The public key does not belong to the private key.',
  publicWithoutPrivate: 'A public key is imported together with its private key.',
  notGpg: 'Only a GPG key pair signs repository metadata.',
  verified: 'The key pair signs and its public key verifies the signature.',
} as const;

export const keyPairBodySchema = z.object({
  pairName: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, KEY_MESSAGES.nameInvalid),
  pairType: z.enum(KEY_PAIR_TYPES),
  /** A label of the key (the user id of a generated GPG key). */
  alias: z.string().trim().max(128).default(''),
  /** Armored OpenPGP or PEM; none: a new key pair is generated. */
  privateKey: z.string().max(65_536).optional(),
  publicKey: z.string().max(65_536).optional(),
  passphrase: z.string().max(1024).optional(),
});
export type KeyPairBody = z.input<typeof keyPairBodySchema>;

export const keyPairSchema = z.object({
  pairName: z.string(),
  pairType: z.enum(KEY_PAIR_TYPES),
  alias: z.string(),
  fingerprint: z.string(),
  algorithm: z.string(),
  publicKey: z.string(),
  source: z.enum(['generated', 'imported']),
  created: z.string(),
  createdBy: z.string(),
});
export type KeyPair = z.infer<typeof keyPairSchema>;

/** Put a GPG key pair to sign the deployment's metadata (empty scope) or one repository's. */
export const keyPairUseBodySchema = z.object({ repoKey: z.string().default('') });

/** TLS certificates (`ui/security/certificates`): client certificates remote repositories present, trusted authorities. */
export const CERTIFICATE_KINDS = ['client', 'trusted'] as const;

export const CERTIFICATE_MESSAGES = {
  aliasInvalid: 'The alias starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {alias} is replaced. */
  aliasTaken: "A certificate named '{alias}' exists already.",
  /** {alias} is replaced. */
  notFound: "There is no certificate '{alias}'.",
  noCertificate: 'The PEM holds no certificate.',
  noKey: 'A client certificate needs its private key in the PEM, unencrypted.',
  keyMismatch: 'The private key does not belong to the certificate.',
  keyForTrusted: 'A trusted authority is added without a private key.',
  /** {alias}, {users} are replaced. */
  inUse: "The certificate '{alias}' is presented by {users}; choose another one there first.",
  /** {alias} is replaced. */
  notClient: "'{alias}' is no client certificate.",
} as const;

export const certificateBodySchema = z.object({
  alias: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, CERTIFICATE_MESSAGES.aliasInvalid),
  kind: z.enum(CERTIFICATE_KINDS).default('client'),
  /** The certificate (with its chain) and, for a client certificate, its private key, in PEM. */
  pem: z.string().min(1, ERROR_MESSAGES.mandatory).max(262_144),
});
export type CertificateBody = z.input<typeof certificateBodySchema>;

export const certificateSchema = z.object({
  alias: z.string(),
  kind: z.enum(CERTIFICATE_KINDS),
  subject: z.string(),
  issuer: z.string(),
  fingerprint: z.string(),
  validFrom: z.string(),
  validUntil: z.string(),
  /** Remote repositories that present it. */
  usedBy: z.array(z.string()),
  created: z.string(),
  createdBy: z.string(),
});
export type Certificate = z.infer<typeof certificateSchema>;

/**
 * Trusted keys — Keys Management's public keys (`ui/security/trustedKeys`, Artifactory's
 * `/api/security/keys/trusted`): OpenPGP public keys of others, against which the detached
 * signatures (`<file>.asc`) stored beside artifacts are checked.
 */
export const TRUSTED_KEY_MESSAGES = {
  aliasInvalid: 'The alias starts with a letter and holds letters, digits, dots, dashes and underscores only.',
  /** {alias} is replaced. */
  aliasTaken: "A trusted key named '{alias}' exists already.",
  /** {alias} is replaced. */
  keyTaken: "This key is trusted already, as '{alias}'.",
  notPublicKey: 'The key is not an armored OpenPGP public key.',
  privateGiven: 'This is a private key: only public keys are trusted. Export the public key (gpg --armor --export).',
  /** {kid} is replaced. */
  notFound: "There is no trusted key '{kid}'.",
} as const;

export const trustedKeyBodySchema = z.object({
  alias: z
    .string()
    .trim()
    .min(1, ERROR_MESSAGES.mandatory)
    .max(64)
    .regex(/^[A-Za-z][A-Za-z0-9._-]*$/, TRUSTED_KEY_MESSAGES.aliasInvalid),
  publicKey: z.string().min(1, ERROR_MESSAGES.mandatory).max(262_144),
});
export type TrustedKeyBody = z.input<typeof trustedKeyBodySchema>;

export const trustedKeySchema = z.object({
  /** The key id: the fingerprint's last 16 hex digits. */
  kid: z.string(),
  alias: z.string(),
  fingerprint: z.string(),
  algorithm: z.string(),
  userIds: z.array(z.string()),
  publicKey: z.string(),
  issuedOn: z.string(),
  /** Null: the key does not expire. */
  validUntil: z.string().nullable(),
  created: z.string(),
  createdBy: z.string(),
});
export type TrustedKey = z.infer<typeof trustedKeySchema>;

/** What the signature beside a file says of it. */
export const SIGNATURE_STATES = ['verified', 'untrusted', 'invalid', 'unreadable'] as const;
export type SignatureState = (typeof SIGNATURE_STATES)[number];

export const SIGNATURE_STATE_LABELS: Record<SignatureState, string> = {
  verified: 'Verified',
  untrusted: 'Signed by a key that is not trusted',
  invalid: 'Invalid signature',
  unreadable: 'Unreadable signature',
};

export const artifactSignatureSchema = z.object({
  /** The detached signature found beside the file (`<path>.asc` or `<path>.sig`); null when there is none. */
  signaturePath: z.string().nullable(),
  state: z.enum(SIGNATURE_STATES).nullable(),
  /** The key id the signature names (16 hex digits, upper case). */
  keyId: z.string(),
  /** The trusted key that verifies it. */
  alias: z.string(),
  userIds: z.array(z.string()),
  signedAt: z.string().nullable(),
  message: z.string(),
});
export type ArtifactSignature = z.infer<typeof artifactSignatureSchema>;

/**
 * Java key stores (JKS or PKCS#12, as keytool makes them): read with their password, their
 * entries listed, the chosen ones imported as certificates — a key entry as a client certificate
 * (with its private key), a trusted certificate entry as a trusted authority.
 */
export const KEYSTORE_MESSAGES = {
  notKeyStore: 'The file is not a Java key store (JKS) or a PKCS#12 file.',
  wrongPassword: 'The password does not open the key store.',
  /** {entry} is replaced. */
  noEntry: "The key store holds no entry '{entry}'.",
  nothingChosen: 'Choose at least one entry to import.',
  /** {alias} is replaced. */
  aliasTwice: "The alias '{alias}' is given to two entries.",
  tooLarge: 'A key store is 1 MB at most.',
} as const;

/** The key store file, base64, and its password. */
export const keyStoreReadBodySchema = z.object({
  file: z.string().min(1, ERROR_MESSAGES.mandatory).max(1_400_000, KEYSTORE_MESSAGES.tooLarge),
  password: z.string().max(1024).default(''),
});
export type KeyStoreReadBody = z.input<typeof keyStoreReadBodySchema>;

export const keyStoreEntrySchema = z.object({
  entry: z.string(),
  /** `client`: a private key with its certificate chain; `trusted`: a certificate alone. */
  kind: z.enum(CERTIFICATE_KINDS),
  subject: z.string(),
  issuer: z.string(),
  fingerprint: z.string(),
  validUntil: z.string(),
  /** A certificate with this fingerprint is kept already, under this alias (empty when none is). */
  keptAs: z.string(),
});
export type KeyStoreEntry = z.infer<typeof keyStoreEntrySchema>;

export const keyStoreImportBodySchema = keyStoreReadBodySchema.extend({
  entries: z
    .array(z.object({ entry: z.string().min(1), alias: certificateBodySchema.shape.alias }))
    .min(1, KEYSTORE_MESSAGES.nothingChosen)
    .max(200),
});
export type KeyStoreImportBody = z.input<typeof keyStoreImportBodySchema>;
