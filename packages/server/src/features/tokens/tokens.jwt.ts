import { createPrivateKey, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { getSetting, putSettingOnce } from '../../core/settings.store.js';
import type { Db } from '../../db/database.js';

/**
 * Access tokens are JWTs, as Artifactory's are: tools decode them to read the subject and the
 * expiry. They are signed with the deployment's Ed25519 key (made once, kept in the settings and
 * shared by every node; its public half at `/access/api/v1/cert/root` verifies them offline) and
 * are still looked up by their SHA-256 on every use, so that revoking one (by its `jti`) ends it.
 */
export interface TokenClaims {
  /** `jfac@{service}/users/{name}` */
  sub: string;
  /** The scope: `applied-permissions/user`, `…/admin` or `…/groups:a,b`. */
  scp: string;
  aud: string;
  iss: string;
  iat: number;
  exp?: number;
  /** The token's id: what revocation names. */
  jti: string;
}

/** The service id tokens name as issuer and in their subjects. */
export const TOKEN_SERVICE = 'jfac@arca';

interface KeyPair {
  kid: string;
  privateKey: string;
  publicKey: string;
}

async function keyPair(db: Db): Promise<KeyPair> {
  let key = (await getSetting(db, 'access.signingKey')) as KeyPair | '';
  if (!key) {
    const pair = generateKeyPairSync('ed25519');
    const fresh: KeyPair = {
      kid: randomUUID(),
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    // made once: a node racing here writes nothing, and every node then reads the one that stayed
    key = (await putSettingOnce(db, 'access.signingKey', fresh)) as KeyPair;
  }
  return key;
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export async function signToken(db: Db, claims: TokenClaims): Promise<string> {
  const { kid, privateKey } = await keyPair(db);
  const body = `${b64({ typ: 'JWT', alg: 'EdDSA', kid })}.${b64(claims)}`;
  const signature = sign(null, Buffer.from(body), createPrivateKey(privateKey)).toString('base64url');
  return `${body}.${signature}`;
}

/** The public key (PEM) that verifies the tokens. */
export async function tokenPublicKey(db: Db): Promise<string> {
  return (await keyPair(db)).publicKey;
}

/** Whether a secret has a JWT's form (three base64url parts, a JSON header). */
export const isJwt = (secret: string) => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(secret);
