import * as openpgp from 'openpgp';
import type { Db } from '../../db/database.js';
import type { SigningKeysTable } from '../../db/schema.js';
import { badRequest } from '../../core/errors.js';
import { seal, unseal } from '../../core/sealing.js';
import { SIGNING_MESSAGES, type SigningKeyInfo } from '@arca/contracts';

/** The deployment's own key; a repository's has its key as scope. */
export const DEPLOYMENT_SCOPE = '';

/** What signs a repository's metadata: its key's facts and the two kinds of signature apt and dnf read. */
export interface Signer {
  key: SigningKeyInfo;
  /** An ASCII-armored detached signature (Release.gpg, repomd.xml.asc). */
  detached(data: Buffer): Promise<string>;
  /** The text signed in the clear (InRelease). */
  cleartext(text: string): Promise<string>;
}

const sealContext = (scope: string) => `signing-key:${scope}`;

/** How a key's algorithm is shown: 'eddsaLegacy (ed25519Legacy)', 'rsaEncryptSign 4096'. */
export function algorithmLabel(key: openpgp.Key): string {
  const info = key.getAlgorithmInfo();
  return 'curve' in info && info.curve
    ? `${info.algorithm} (${info.curve})`
    : `${info.algorithm}${'bits' in info && info.bits ? ` ${info.bits}` : ''}`;
}

function infoOf(row: SigningKeysTable): SigningKeyInfo {
  return {
    scope: row.scope,
    fingerprint: row.fingerprint,
    keyId: row.fingerprint.slice(-16),
    algorithm: row.algorithm,
    userId: row.user_id,
    publicKey: row.public_key,
    source: row.source,
    created: new Date(Number(row.created_at)).toISOString(),
    createdBy: row.created_by,
  };
}

/** Unlocked private keys by scope and fingerprint, per process: unsealing and parsing once. */
const unlocked = new Map<string, openpgp.PrivateKey>();

/**
 * The deployment's and the repositories' OpenPGP signing keys (openpgp.js): generated here
 * (Ed25519, as GnuPG 2.2 and later read it) or imported from an armored private key, kept
 * sealed at rest, answered without their private part, used to sign repository metadata.
 */
export class SigningKeys {
  constructor(private readonly db: Db) {}

  private row(scope: string) {
    return this.db.selectFrom('signing_keys').selectAll().where('scope', '=', scope).executeTakeFirst();
  }

  /** A key, or undefined when the scope has none. */
  async get(scope: string): Promise<SigningKeyInfo | undefined> {
    const row = await this.row(scope);
    return row && infoOf(row);
  }

  /**
   * The deployment's key, made at first need: a second node racing here makes its own, the
   * first one stored stays and both use it.
   */
  async deploymentKey(): Promise<SigningKeyInfo> {
    const found = await this.get(DEPLOYMENT_SCOPE);
    if (found) return found;
    await this.store(DEPLOYMENT_SCOPE, await this.generated(DEPLOYMENT_SCOPE), 'generated', 'system', false);
    return (await this.get(DEPLOYMENT_SCOPE))!;
  }

  /** The key that signs a repository's metadata: its own, else the deployment's. */
  async keyFor(repoKey: string): Promise<SigningKeyInfo> {
    return (await this.get(repoKey)) ?? this.deploymentKey();
  }

  private async generated(scope: string): Promise<string> {
    const { privateKey } = await openpgp.generateKey({
      type: 'ecc',
      curve: 'curve25519Legacy',
      userIDs: [{ name: scope ? `Arca repository ${scope}` : 'Arca deployment signing key' }],
      format: 'armored',
    });
    return privateKey;
  }

  /** A new key for the scope, in place of any it had (its old signatures no longer verify against it). */
  async generate(scope: string, actor: string): Promise<SigningKeyInfo> {
    await this.store(scope, await this.generated(scope), 'generated', actor, true);
    return (await this.get(scope))!;
  }

  /** An armored private key taken for the scope, opened with its passphrase when it has one. */
  async import(scope: string, armored: string, passphrase: string | undefined, actor: string): Promise<SigningKeyInfo> {
    let key: openpgp.PrivateKey;
    try {
      key = await openpgp.readPrivateKey({ armoredKey: armored });
    } catch {
      throw badRequest(SIGNING_MESSAGES.notPrivateKey);
    }
    if (!key.isDecrypted()) {
      try {
        key = await openpgp.decryptKey({ privateKey: key, passphrase: passphrase ?? '' });
      } catch {
        throw badRequest(SIGNING_MESSAGES.wrongPassphrase);
      }
    }
    try {
      await key.getSigningKey();
    } catch {
      throw badRequest(SIGNING_MESSAGES.cannotSign);
    }
    await this.store(scope, key.armor(), 'imported', actor, true);
    return (await this.get(scope))!;
  }

  /** The deployment's key and the repositories' own keys. */
  async list(): Promise<{ deployment: SigningKeyInfo; repositories: SigningKeyInfo[] }> {
    const deployment = await this.deploymentKey();
    const rows = await this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where('scope', '!=', DEPLOYMENT_SCOPE)
      .orderBy('scope')
      .execute();
    return { deployment, repositories: rows.map(infoOf) };
  }

  /** Removes a repository's own key: it signs with the deployment's again. False when it had none. */
  async remove(scope: string): Promise<boolean> {
    const result = await this.db.deleteFrom('signing_keys').where('scope', '=', scope).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private async store(
    scope: string,
    armoredPrivate: string,
    source: 'generated' | 'imported',
    actor: string,
    replace: boolean,
  ): Promise<void> {
    const key = await openpgp.readPrivateKey({ armoredKey: armoredPrivate });
    const row: SigningKeysTable = {
      scope,
      fingerprint: key.getFingerprint().toUpperCase(),
      algorithm: algorithmLabel(key),
      user_id: key.getUserIDs()[0] ?? '',
      public_key: key.toPublic().armor(),
      private_key: await seal(this.db, sealContext(scope), armoredPrivate),
      source,
      created_at: Date.now(),
      created_by: actor,
    };
    const insert = this.db.insertInto('signing_keys').values(row);
    await (replace
      ? insert.onConflict((oc) => oc.column('scope').doUpdateSet({ ...row, scope: undefined } as never)).execute()
      : insert.onConflict((oc) => oc.column('scope').doNothing()).execute());
  }

  private async privateKey(scope: string): Promise<openpgp.PrivateKey> {
    const row = (await this.row(scope))!;
    const cacheKey = `${scope}|${row.fingerprint}`;
    const known = unlocked.get(cacheKey);
    if (known) return known;
    const armored = await unseal(this.db, sealContext(scope), row.private_key);
    if (!armored) throw new Error(`the signing key of '${scope || 'the deployment'}' cannot be unsealed`);
    const key = await openpgp.readPrivateKey({ armoredKey: armored });
    unlocked.set(cacheKey, key);
    return key;
  }

  /** What signs a repository's metadata now. */
  async signerFor(repoKey: string): Promise<Signer> {
    const key = await this.keyFor(repoKey);
    const privateKey = await this.privateKey(key.scope);
    return {
      key,
      detached: async (data) =>
        (await openpgp.sign({
          message: await openpgp.createMessage({ binary: new Uint8Array(data) }),
          signingKeys: privateKey,
          detached: true,
          format: 'armored',
        })) as string,
      cleartext: async (text) =>
        openpgp.sign({
          message: await openpgp.createCleartextMessage({ text }),
          signingKeys: privateKey,
          format: 'armored',
        }),
    };
  }
}
