import { randomUUID } from 'node:crypto';
import {
  LICENSE_EDITION_RANKS,
  LICENSE_MESSAGES,
  licenseRank,
  type LicenseDocument,
  type LicenseEdition,
  type LicenseInfo,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import type { LicenseRow, NewLicense } from '../../db/schema.js';
import {
  loadOrCreateIssuerKey,
  parseIssuerPublicKey,
  signLicense,
  verifyLicenseKey,
  type IssuerKey,
} from './license-keys.js';
import { badRequest } from '../../core/errors.js';
import { activateLicense, activeLicenses, addLicenses } from './license.store.js';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The licence in force: verification, installation, issuing and the edition that gates features. */
declare module 'fastify' {
  interface FastifyInstance {
    /** The installed licence of this deployment. */
    license: LicenseService;
  }
}

export class LicenseService {
  readonly ownKey: IssuerKey;
  readonly trusted: IssuerKey[];

  private constructor(
    private readonly db: Db,
    ownKey: IssuerKey,
    extraIssuerKeys: string[],
  ) {
    this.ownKey = ownKey;
    this.trusted = [this.ownKey, ...extraIssuerKeys.map(parseIssuerPublicKey)];
  }

  /** The service with this deployment's issuer key (from the database) and the extra trusted ones. */
  static async open(db: Db, dataDir: string, extraIssuerKeys: string[]): Promise<LicenseService> {
    return new LicenseService(db, await loadOrCreateIssuerKey(db, dataDir), extraIssuerKeys);
  }

  /** Signs a new licence key with this deployment's issuer key. */
  issue(options: {
    edition: Exclude<LicenseEdition, 'NONE'>;
    licensee: string;
    days: number | null;
    now?: number;
  }): string {
    const now = options.now ?? Date.now();
    const document: LicenseDocument = {
      version: 1,
      id: randomUUID(),
      edition: options.edition,
      licensee: options.licensee,
      issuedAt: new Date(now).toISOString(),
      expiresAt: options.days === null ? null : new Date(now + options.days * 86_400_000).toISOString(),
      issuer: this.ownKey.id,
    };
    return signLicense(document, this.ownKey);
  }

  /** A licence key's document, when a trusted issuer signed it and it has not expired; a 400 otherwise. */
  verify(text: string, now = Date.now()): LicenseDocument {
    return verifyLicenseKey(text, this.trusted, now);
  }

  /** On first start: a non-expiring OSS licence signed by this deployment's key. */
  async ensureLicense(): Promise<void> {
    if ((await activeLicenses(this.db)).length) return;
    await this.install(this.issue({ edition: 'OSS', licensee: 'Open Source', days: null }), 'system');
  }

  /** Verifies and installs a key; a bad key throws and changes nothing. */
  async install(text: string, installedBy: string, now = Date.now()): Promise<LicenseInfo> {
    const document = verifyLicenseKey(text, this.trusted, now);
    await activateLicense(this.db, rowOf(text, document, installedBy, now));
    return this.current(now);
  }

  /**
   * Verifies several keys of one edition and licensee (a bucket's, one per node) and adds them to
   * the licences in force; one bad key throws and changes nothing.
   */
  async installMany(texts: string[], installedBy: string, now = Date.now()): Promise<LicenseInfo> {
    const documents = texts.map((text) => ({ text: text.trim(), document: verifyLicenseKey(text, this.trusted, now) }));
    const [first] = documents;
    if (!first) return this.current(now);
    if (
      documents.some(
        ({ document }) => document.edition !== first.document.edition || document.licensee !== first.document.licensee,
      )
    )
      throw badRequest(LICENSE_MESSAGES.mixed);
    await addLicenses(
      this.db,
      documents.map(({ text, document }) => rowOf(text, document, installedBy, now)),
    );
    return this.current(now);
  }

  /** The licences in force, the one that runs longest first. */
  async inForce(): Promise<LicenseRow[]> {
    const rows = await activeLicenses(this.db);
    return rows.sort((a, b) => (b.expires_at ?? Infinity) - (a.expires_at ?? Infinity));
  }

  async current(now = Date.now()): Promise<LicenseInfo> {
    const rows = await this.inForce();
    return describe(rows[0], now, rows.length);
  }
}

/** A verified key as it is stored. */
function rowOf(text: string, document: LicenseDocument, installedBy: string, now: number): NewLicense {
  return {
    id: document.id,
    key_text: text.trim(),
    edition: document.edition,
    licensee: document.licensee,
    issued_at: Date.parse(document.issuedAt),
    expires_at: document.expiresAt === null ? null : Date.parse(document.expiresAt),
    issuer: document.issuer,
    installed_at: now,
    installed_by: installedBy,
    active: 1,
  };
}

/** The licence as the console sees it; an expired licence counts as edition NONE (N/A). */
export function describe(row: LicenseRow | undefined, now: number, count: number): LicenseInfo {
  if (!row) {
    return {
      edition: 'NONE',
      rank: 0,
      status: 'NONE',
      licensee: null,
      id: null,
      issuedAt: null,
      expiresAt: null,
      issuer: null,
      installedAt: null,
      installedBy: null,
      count: 0,
    };
  }
  const expired = row.expires_at !== null && row.expires_at <= now;
  const edition = (expired ? 'NONE' : row.edition) as LicenseEdition;
  return {
    edition: edition in LICENSE_EDITION_RANKS ? edition : 'NONE',
    rank: licenseRank(edition),
    status: expired ? 'EXPIRED' : 'VALID',
    licensee: row.licensee,
    id: row.id,
    issuedAt: iso(row.issued_at),
    expiresAt: iso(row.expires_at),
    issuer: row.issuer,
    installedAt: iso(row.installed_at),
    installedBy: row.installed_by,
    count,
  };
}
