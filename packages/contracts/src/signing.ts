import { z } from 'zod';

/**
 * The signing keys at Artifactory's addresses (`/artifactory/api/gpg/key/…`): the deployment's key
 * and a repository's own, which sign Debian's `InRelease`, RPM's `repomd.xml.asc` and Terraform's
 * `SHA256SUMS`. Their public halves are anyone's; only administrators change them.
 */
export const SIGNING_MESSAGES = {
  notPrivateKey: 'The key is not an armored OpenPGP private key.',
  wrongPassphrase: 'The passphrase does not open the private key.',
  cannotSign: 'The key cannot sign.',
  /** {key} is replaced. */
  noRepositoryKey: "Repository '{key}' has no signing key of its own: it signs with the deployment's.",
} as const;

/** A signing key as answered: everything but the private key. */
export const signingKeyInfoSchema = z.object({
  /** '' for the deployment's key, else the repository's key. */
  scope: z.string(),
  fingerprint: z.string(),
  keyId: z.string(),
  algorithm: z.string(),
  userId: z.string(),
  publicKey: z.string().describe('the armored public key'),
  source: z.enum(['generated', 'imported']),
  created: z.string(),
  createdBy: z.string(),
});
export type SigningKeyInfo = z.infer<typeof signingKeyInfoSchema>;

/** Every signing key: the deployment's, then the repositories' own. */
export const signingKeyListSchema = z.object({
  deployment: signingKeyInfoSchema,
  repositories: z.array(signingKeyInfoSchema),
});

/** The repository whose own key a call is about. */
export const signingRepoParamsSchema = z.object({ repoKey: z.string().describe('the repository key') });

/** An armored private key as sent to `PUT /api/gpg/key/private` (its passphrase in `X-GPG-PASSPHRASE`). */
export const signingKeyImportSchema = z
  .string()
  .max(1024 * 1024)
  .describe('the armored OpenPGP private key');
