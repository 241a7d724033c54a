import { z } from 'zod';
import { ERROR_MESSAGES } from './errors.js';

/**
 * The SSH server (`/admin/artifactory/security/keys_management/ssh-server`): clients that hold an
 * SSH key a user registered sign in over SSH and receive a short-lived access token
 * (`ssh -p <port> <user>@<host> jfrog-authenticate`), as the JFrog CLI does.
 */
export const SSH_DEFAULT_PORT = 1339;
/** How long the token answered over SSH works, in seconds. */
export const SSH_TOKEN_SECONDS = 3600;
/** The commands the SSH server answers. */
export const SSH_COMMANDS = ['jfrog-authenticate'] as const;

export const SSH_MESSAGES = {
  portInvalid: 'The port is a number from 1 to 65535.',
  portTaken: 'The port is used by the HTTP server; choose another one.',
  hostKeyInvalid: 'The host key is not an unencrypted OpenSSH, RSA or ECDSA private key.',
  publicKeyInvalid: 'The public key is not an OpenSSH public key (ssh-ed25519, ssh-rsa or ecdsa-sha2-…).',
  /** {user} is replaced. */
  keyTaken: "This key is registered already (by '{user}').",
  titleMissing: ERROR_MESSAGES.mandatory,
  /** {id} is replaced. */
  notFound: "There is no SSH key '{id}'.",
  /** {command} is replaced; what a client that asks for anything else reads on its error stream. */
  unknownCommand: "Unknown command '{command}'. The SSH server answers: jfrog-authenticate.",
} as const;

export const sshServerSettingsSchema = z.object({
  enabled: z.boolean(),
  port: z.coerce
    .number()
    .int(SSH_MESSAGES.portInvalid)
    .min(1, SSH_MESSAGES.portInvalid)
    .max(65535, SSH_MESSAGES.portInvalid),
});
export type SshServerSettings = z.infer<typeof sshServerSettingsSchema>;

export const sshServerSchema = sshServerSettingsSchema.extend({
  /** This node listens for SSH now. */
  listening: z.boolean(),
  /** Why this node does not listen while enabled (the port taken, say); empty otherwise. */
  problem: z.string(),
  hostKey: z.object({ algorithm: z.string(), fingerprint: z.string(), publicKey: z.string() }).nullable(),
  /** The line users add to `~/.ssh/known_hosts` (empty before the first host key). */
  knownHostsLine: z.string(),
  userKeys: z.number(),
});
export type SshServer = z.infer<typeof sshServerSchema>;

/** A new host key: the one given (OpenSSH or PEM), or a new Ed25519 key when none is. */
export const sshHostKeyBodySchema = z.object({ privateKey: z.string().max(32_768).optional() });

export const sshKeyBodySchema = z.object({
  title: z.string().trim().min(1, SSH_MESSAGES.titleMissing).max(128),
  publicKey: z.string().trim().min(1, SSH_MESSAGES.titleMissing).max(16_384),
});
export type SshKeyBody = z.input<typeof sshKeyBodySchema>;

export const sshKeySchema = z.object({
  id: z.string(),
  user: z.string(),
  title: z.string(),
  algorithm: z.string(),
  /** `SHA256:…`, as `ssh-keygen -lf` prints it. */
  fingerprint: z.string(),
  created: z.string(),
  lastUsed: z.string().nullable(),
});
export type SshKey = z.infer<typeof sshKeySchema>;

/** What `jfrog-authenticate` prints: where to call and the header that signs the calls in. */
export const sshAuthenticationSchema = z.object({
  href: z.string(),
  headers: z.object({ Authorization: z.string() }),
  expires_in: z.number(),
});
export type SshAuthentication = z.infer<typeof sshAuthenticationSchema>;
