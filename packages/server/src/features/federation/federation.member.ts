import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import {
  BUILT_IN_ADMIN,
  FEDERATION_ENTITY_TYPES,
  type FederationEntityType,
  type MemberConfig,
  type MemberState,
  type PermissionsFilter,
  type StoredEvent,
} from '@arca/contracts';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { onEventWriting, recordAudit, type ChangeActor } from '../../core/changes.js';
import { followConfigWhileOpen } from '../../core/config-cache.js';
import { HttpError, conflict } from '../../core/errors.js';
import { OutboundRefused, outboundRequest } from '../../core/outbound.js';
import { OutboxConsumer, consumerBacklog, dropConsumer, ensureConsumer, type RetryPolicy } from '../../core/outbox.js';
import { registerSecretSource, seal, unseal } from '../../core/sealing.js';
import { allowedOutboundHosts, getSetting, putSetting } from '../../core/settings.store.js';
import { afterApply, applyState, entityNames, entityOf, stateOf, type EntityVersion } from './federation.entities.js';

/** Changes federation applies are recorded by this actor (with the origin's name), and never sent on. */
export const FEDERATION_ACTOR = 'federation:';
const CONSUMER = (peerId: string) => `federation:${peerId}`;
const SEAL = (peerId: string) => `federation-peer:${peerId}`;
const TIMEOUTS = { connectMs: 5_000, firstByteMs: 30_000, idleMs: 30_000 };
/** A peer that is down is tried every few seconds for days: it catches up within seconds of coming back. */
const PEER_RETRY: RetryPolicy = { maxAttempts: 100_000, baseDelayMs: 500, maxDelayMs: 4_000 };
const BATCH = 200;

const isDeletion = (type: string) => type.endsWith('.deleted') || type === 'token.revoked';

/** `*` matches any run of characters; the rest is literal. */
const globMatch = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(name);

export function permissionTravels(filter: PermissionsFilter, name: string): boolean {
  if (filter.include_patterns.length && !filter.include_patterns.some((p) => globMatch(p, name))) return false;
  return !filter.exclude_patterns.some((p) => globMatch(p, name));
}

/** This deployment's part in a federation, its peers' tokens opened; undefined when it has none. */
export async function memberConfig(db: Db): Promise<MemberConfig | undefined> {
  const stored = await getSetting(db, 'federation.member');
  if (!stored) return undefined;
  const peers = await Promise.all(
    stored.peers.map(async (peer) => ({ ...peer, token: (await unseal(db, SEAL(peer.id), peer.token)) ?? '' })),
  );
  return { ...stored, peers };
}

registerSecretSource('federation', async (db) => ((await memberConfig(db))?.peers ?? []).map((p) => p.token));

/** The clock of an entity here: its newest version's (zero for what federation never saw change). */
interface Clock {
  clock: number;
  origin: string;
  base_clock: number;
  base_origin: string;
}

async function clockOf(db: Db, type: string, name: string, options: { lock?: boolean } = {}): Promise<Clock> {
  const query = db.selectFrom('federation_clocks').selectAll().where('entity_type', '=', type).where('name', '=', name);
  const row = await (options.lock && isPostgres(db) ? query.forUpdate() : query).executeTakeFirst();
  return row
    ? { clock: Number(row.clock), origin: row.origin, base_clock: Number(row.base_clock), base_origin: row.base_origin }
    : { clock: 0, origin: '', base_clock: 0, base_origin: '' };
}

async function putClock(trx: Db, type: string, name: string, clock: Clock, deleted: boolean) {
  const values = { ...clock, deleted: deleted ? 1 : 0 };
  await trx
    .insertInto('federation_clocks')
    .values({ entity_type: type, name, ...values })
    .onConflict((oc) => oc.columns(['entity_type', 'name']).doUpdateSet(values))
    .execute();
}

let clockWriter: (() => void) | undefined;

/**
 * Each change of a federated entity made on this deployment takes a new clock in its own
 * transaction: later than any version of it this deployment has seen, and than the wall clock
 * (a hybrid logical clock), stamped with this member's id. Changes federation applies keep theirs.
 */
function registerClockWriter(): void {
  clockWriter ??= onEventWriting(async (trx, event, actor, now) => {
    const entity = entityOf(event);
    if (!entity || actor.startsWith(FEDERATION_ACTOR)) return;
    // read in the change's transaction (never a cached copy)
    const config = await getSetting(trx, 'federation.member');
    if (!config) return;
    const current = await clockOf(trx, entity.type, entity.name);
    const next = {
      clock: Math.max(now, current.clock + 1),
      origin: config.self.id,
      base_clock: current.clock,
      base_origin: current.origin,
    };
    await putClock(trx, entity.type, entity.name, next, isDeletion(event.type));
  });
}

/** The version of an entity as this deployment holds it now. */
export async function versionOf(
  db: Db,
  type: FederationEntityType,
  name: string,
  options: { adminCredentials?: boolean } = {},
): Promise<EntityVersion> {
  const [data, clock] = await Promise.all([stateOf(db, type, name, options), clockOf(db, type, name)]);
  return { type, name, ...clock, data };
}

async function sendTo(
  app: FastifyInstance,
  config: MemberConfig,
  peer: MemberConfig['peers'][number],
  versions: EntityVersion[],
): Promise<void> {
  let answer;
  try {
    answer = await outboundRequest(`${peer.url}/access/api/v1/federation/apply`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${peer.token}` },
      body: JSON.stringify({ origin: config.self, versions }),
      allowed: await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts),
      timeouts: TIMEOUTS,
    });
  } catch (error) {
    throw new Error(`${peer.name}: ${error instanceof OutboundRefused ? error.message : String(error)}`);
  }
  if (answer.status !== 200) throw new Error(`${peer.name} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
}

/**
 * The versions one change stands for, as the peers see it: nothing when federation does not carry
 * it (another entity type, a permission the filter leaves out, a change federation applied here).
 */
async function versionsFor(app: FastifyInstance, config: MemberConfig, event: StoredEvent): Promise<EntityVersion[]> {
  const entity = entityOf(event);
  if (!entity || event.actor.startsWith(FEDERATION_ACTOR) || !config.entity_types.includes(entity.type)) return [];
  if (entity.type === 'PERMISSIONS' && !permissionTravels(config.permissions_filter, entity.name)) return [];
  const version = await versionOf(app.db, entity.type, entity.name);
  // a token that is no one else's business (one made to reach a member), or gone before it left
  if (entity.type === 'TOKENS' && version.data === null && !isDeletion(event.type)) return [];
  return [version];
}

/**
 * The outbox consumers that carry this member's changes, one per peer (a peer that is down holds
 * up only its own), started and stopped as the member's configuration changes.
 */
class FederationLinks {
  private readonly consumers = new Map<string, OutboxConsumer>();
  private following: Promise<void> = Promise.resolve();

  constructor(private readonly app: FastifyInstance) {}

  follow(): Promise<void> {
    this.following = this.following
      .then(() => this.sync())
      .catch((error: unknown) => {
        this.app.log.warn({ err: error }, 'federation: following the configuration failed');
      });
    return this.following;
  }

  private async sync(): Promise<void> {
    if (!this.app.polls) return;
    const config = await memberConfig(this.app.db);
    const wanted = new Map((config?.peers ?? []).map((peer) => [CONSUMER(peer.id), peer]));
    for (const [name, consumer] of this.consumers) {
      if (wanted.has(name)) continue;
      await consumer.stop();
      this.consumers.delete(name);
    }
    for (const [name, peer] of wanted) {
      if (this.consumers.has(name)) continue;
      const consumer = new OutboxConsumer(
        this.app,
        name,
        async (event) => {
          const current = await memberConfig(this.app.db);
          const now = current?.peers.find((p) => p.id === peer.id);
          if (!current || !now) return;
          const versions = await versionsFor(this.app, current, event);
          if (versions.length) await sendTo(this.app, current, now, versions);
        },
        { retry: PEER_RETRY, pollMs: 500, wakeOnRecord: true },
      );
      consumer.start();
      this.consumers.set(name, consumer);
    }
  }

  async stop(): Promise<void> {
    await this.following;
    for (const consumer of this.consumers.values()) await consumer.stop();
    this.consumers.clear();
  }
}

const links = new WeakMap<FastifyInstance, FederationLinks>();

export function registerFederationMember(app: FastifyInstance): void {
  registerClockWriter();
  const own = new FederationLinks(app);
  links.set(app, own);
  let open = true;
  app.addHook('onReady', () => own.follow());
  followConfigWhileOpen(app, () => {
    if (open) void own.follow();
  });
  app.addHook('onClose', async () => {
    open = false;
    await own.stop();
  });
}

/** Revokes tokens this member held to reach peers (best effort: a peer that is gone keeps a token nobody holds). */
async function revokePeerTokens(app: FastifyInstance, peers: MemberConfig['peers']): Promise<void> {
  const allowed = await allowedOutboundHosts(app.db, app.config.outboundAllowedHosts);
  await Promise.all(
    peers.map((peer) =>
      outboundRequest(`${peer.url}/access/api/v1/tokens/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${peer.token}` },
        body: JSON.stringify({ token: peer.token }),
        allowed,
        timeouts: TIMEOUTS,
      }).catch(() => undefined),
    ),
  );
}

/**
 * Takes this member's part in a federation (replacing any it had): the peers' tokens sealed, an
 * outbox position per peer taken now — every change from this moment reaches each peer.
 */
export async function setMemberConfig(app: FastifyInstance, who: ChangeActor, config: MemberConfig): Promise<void> {
  const before = await memberConfig(app.db);
  const peers = await Promise.all(
    config.peers.map(async (peer) => ({ ...peer, token: await seal(app.db, SEAL(peer.id), peer.token) })),
  );
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    for (const peer of config.peers) {
      // a peer new to this member starts at what is recorded from now on
      if (!before?.peers.some((p) => p.id === peer.id)) {
        await dropConsumer(trx, CONSUMER(peer.id));
        await ensureConsumer(trx, CONSUMER(peer.id), 'now', now);
      }
    }
    await dropConsumers(
      trx,
      (before?.peers ?? []).filter((p) => !config.peers.some((q) => q.id === p.id)),
    );
    await putSetting(trx, 'federation.member', { ...config, peers });
    await recordAudit(trx, who, {
      category: 'system',
      action: 'join access federation',
      target: config.group_id,
      after: { topology: config.topology, peers: config.peers.map((p) => p.name), entity_types: config.entity_types },
    });
  });
  await links.get(app)?.follow();
  if (before)
    await revokePeerTokens(
      app,
      before.peers.filter((p) => !config.peers.some((q) => q.token === p.token)),
    );
}

async function dropConsumers(trx: Db, peers: { id: string }[]): Promise<void> {
  for (const peer of peers) await dropConsumer(trx, CONSUMER(peer.id));
}

/** Leaves the federation: nothing more is sent, the tokens to reach peers are revoked. */
export async function clearMemberConfig(app: FastifyInstance, who: ChangeActor): Promise<void> {
  const before = await memberConfig(app.db);
  if (!before) return;
  await app.db.transaction().execute(async (trx) => {
    await dropConsumers(trx, before.peers);
    await putSetting(trx, 'federation.member', '');
    await recordAudit(trx, who, { category: 'system', action: 'leave access federation', target: before.group_id });
  });
  await links.get(app)?.follow();
  await revokePeerTokens(app, before.peers);
}

const clockText = (clock: number, origin: string) => `${clock}@${origin || '-'}`;

/**
 * Versions a peer sent: each is kept when it is newer than what this deployment holds (clock,
 * then origin, decide — every member decides alike); an older one from another member is a
 * conflict this deployment won, recorded for administrators; a version seen already changes nothing.
 */
export async function applyVersions(
  app: FastifyInstance,
  origin: { id: string; name: string },
  versions: EntityVersion[],
): Promise<{ applied: number; stale: number; conflicts: number }> {
  const config = await memberConfig(app.db);
  if (!config) throw conflict('This deployment belongs to no access federation.');
  const result = { applied: 0, stale: 0, conflicts: 0 };
  const actor = `${FEDERATION_ACTOR}${origin.name}`;
  for (const version of versions) {
    if (!config.entity_types.includes(version.type)) {
      result.stale++;
      continue;
    }
    // a local change of the entity may commit while this transaction decides (PostgreSQL runs them
    // side by side): its clock is read again once this transaction holds the entity's rows, and
    // the decision is made afresh when it moved, so that neither change overwrites the other's clock
    for (let attempt = 1; ; attempt++) {
      try {
        const tally = await applyOne(version);
        result.applied += tally.applied;
        result.stale += tally.stale;
        result.conflicts += tally.conflicts;
        afterApply(tally.changed);
        break;
      } catch (error) {
        if (!(error instanceof ChangedMeanwhile) || attempt >= 5) throw error;
      }
    }
  }
  return result;

  /** One version in one transaction: what it counts as, and the names of what it changed. */
  async function applyOne(version: EntityVersion) {
    const tally = { applied: 0, stale: 0, conflicts: 0, changed: [] as string[] };
    await app.db.transaction().execute(async (trx) => {
      const local = await clockOf(trx, version.type, version.name);
      const same = version.clock === local.clock && version.origin === local.origin;
      if (same) {
        tally.stale++;
        return;
      }
      const newer = version.clock > local.clock || (version.clock === local.clock && version.origin > local.origin);
      // the sender changed a version other than the one held here, which another member changed: concurrent changes
      const concurrent =
        local.origin !== '' &&
        local.origin !== version.origin &&
        (version.base_clock !== local.clock || version.base_origin !== local.origin) &&
        (local.base_clock !== version.clock || local.base_origin !== version.origin);
      if (concurrent) {
        tally.conflicts++;
        await trx
          .insertInto('federation_conflicts')
          .values({
            id: randomUUID(),
            at: Date.now(),
            entity_type: version.type,
            name: version.name.slice(0, 512),
            kept: newer ? 'remote' : 'local',
            local_clock: clockText(local.clock, local.origin),
            remote_clock: clockText(version.clock, version.origin),
            peer: origin.name.slice(0, 200),
          })
          .execute();
      }
      if (!newer) {
        if (!concurrent) tally.stale++;
        return;
      }
      const changed = await applyState(trx, version, actor);
      const held = await clockOf(trx, version.type, version.name, { lock: true });
      if (held.clock !== local.clock || held.origin !== local.origin) throw new ChangedMeanwhile();
      tally.changed = changed;
      const { clock, origin: from, base_clock, base_origin } = version;
      await putClock(
        trx,
        version.type,
        version.name,
        { clock, origin: from, base_clock, base_origin },
        version.data === null,
      );
      tally.applied++;
    });
    return tally;
  }
}

/** The entity's clock moved while a version of it was being applied: the decision is made again. */
class ChangedMeanwhile extends Error {}

/**
 * Sends every entity this member federates to each peer (a full re-sync); answers what failed per
 * peer. The built-in administrator's password travels only when `adminCredentials` says so.
 */
export async function broadcast(
  app: FastifyInstance,
  options: { adminCredentials?: boolean } = {},
): Promise<{ sent: number; failed: { target: string; error: string }[] }> {
  const config = await memberConfig(app.db);
  if (!config || !config.peers.length) throw new HttpError(409, 'Targets do not exist, cannot trigger broadcast');
  const versions: EntityVersion[] = [];
  for (const type of FEDERATION_ENTITY_TYPES) {
    if (!config.entity_types.includes(type)) continue;
    for (const name of await entityNames(app.db, type)) {
      if (type === 'PERMISSIONS' && !permissionTravels(config.permissions_filter, name)) continue;
      const version = await versionOf(app.db, type, name, options);
      // what was here before the federation, never changed since, is stamped now: it travels as this member's
      // (and the built-in administrator's, when its password is sent on purpose: the targets then take it)
      const forced = options.adminCredentials && type === 'USERS' && name === BUILT_IN_ADMIN;
      if ((version.clock === 0 || forced) && version.data !== null) {
        const stamp = {
          clock: Math.max(Date.now(), version.clock + 1),
          origin: config.self.id,
          base_clock: version.clock,
          base_origin: version.origin,
        };
        await putClock(app.db, type, name, stamp, false);
        Object.assign(version, stamp);
      }
      versions.push(version);
    }
  }
  // groups before users (memberships name them), users before tokens (tokens name their owners)
  const order: Record<FederationEntityType, number> = { GROUPS: 0, USERS: 1, PERMISSIONS: 2, TOKENS: 3 };
  versions.sort((a, b) => order[a.type] - order[b.type]);
  const failed: { target: string; error: string }[] = [];
  let sent = 0;
  await Promise.all(
    config.peers.map(async (peer) => {
      try {
        for (let i = 0; i < versions.length; i += BATCH) await sendTo(app, config, peer, versions.slice(i, i + BATCH));
        sent++;
      } catch (error) {
        failed.push({ target: peer.name, error: error instanceof Error ? error.message : String(error) });
      }
    }),
  );
  return { sent, failed };
}

/** What this member sends, to whom, how each peer is doing, and the conflicts it settled lately. */
export async function memberState(app: FastifyInstance): Promise<MemberState> {
  const config = await memberConfig(app.db);
  const conflicts = await app.db
    .selectFrom('federation_conflicts')
    .selectAll()
    .orderBy('at', 'desc')
    .limit(100)
    .execute();
  const peers = await Promise.all(
    (config?.peers ?? []).map(async (peer) => {
      const backlog = await consumerBacklog(app.db, CONSUMER(peer.id));
      return {
        id: peer.id,
        name: peer.name,
        url: peer.url,
        pending: backlog.pending,
        failing: backlog.failing,
        last_error: backlog.lastError,
      };
    }),
  );
  return {
    federated: Boolean(config),
    self: config?.self ?? null,
    entity_types: config?.entity_types ?? [],
    peers,
    conflicts: conflicts.map((c) => ({
      id: c.id,
      at: new Date(Number(c.at)).toISOString(),
      entity_type: c.entity_type as FederationEntityType,
      name: c.name,
      kept: c.kept as 'local' | 'remote',
      local_clock: c.local_clock,
      remote_clock: c.remote_clock,
      peer: c.peer,
    })),
  };
}
