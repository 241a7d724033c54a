import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  FEDERATION_MESSAGES,
  THIS_DEPLOYMENT,
  federationBodySchema,
  formatMessage,
  type BroadcastAnswer,
  type Federation,
  type FederationBody,
  type FederationCandidate,
  type FederationEntityType,
  type FederationTopology,
  type MemberConfig,
  type MemberState,
  type PermissionsFilter,
} from '@arca/contracts';
import type { Selectable } from 'kysely';
import type { FederationsTable } from '../../db/schema.js';
import { auditActor } from '../../core/audit.js';
import { baseUrlOf } from '../../core/base-url.js';
import { recordChange } from '../../core/changes.js';
import { HttpError, badRequest, conflict, notFound } from '../../core/errors.js';
import { serverNameOf } from '../../core/settings.store.js';
import { TOKEN_SCOPE_ADMIN, createAccessToken } from '../tokens/index.js';
import { callDeployment, deploymentToken } from '../deployments/index.js';
import { broadcast, clearMemberConfig, memberState, setMemberConfig } from './federation.member.js';

interface Target extends FederationCandidate {
  /** The token the source holds to reach this target (its id there, to know it by). */
  token_id: string;
}

/** This deployment and every registered one: who can join a federation. */
export async function candidates(request: FastifyRequest): Promise<FederationCandidate[]> {
  const app = request.server;
  const self = {
    id: THIS_DEPLOYMENT,
    name: await serverNameOf(app.db, app.config.serverName, 'Arca'),
    url: baseUrlOf(request),
  };
  const others = await app.db.selectFrom('deployments').select(['id', 'name', 'url']).orderBy('name').execute();
  return [self, ...others];
}

function answerOf(row: Selectable<FederationsTable>, known: Map<string, FederationCandidate>): Federation {
  const targets = JSON.parse(row.targets) as Target[];
  return {
    source: known.get(row.source_id) ?? { id: row.source_id, name: row.source_id, url: '' },
    targets: targets.map((t) => known.get(t.id) ?? { id: t.id, name: t.name, url: t.url }),
    topology: row.topology as FederationTopology,
    group_id: row.group_id,
    entity_types: JSON.parse(row.entity_types) as FederationEntityType[],
    permissions_filter: JSON.parse(row.permissions_filter) as PermissionsFilter,
    created: new Date(Number(row.created_at)).toISOString(),
    updated: new Date(Number(row.updated_at)).toISOString(),
  };
}

export async function listFederations(request: FastifyRequest): Promise<Federation[]> {
  const known = new Map((await candidates(request)).map((c) => [c.id, c]));
  const rows = await request.server.db.selectFrom('federations').selectAll().orderBy('created_at').execute();
  return rows.map((row) => answerOf(row, known)).sort((a, b) => a.source.name.localeCompare(b.source.name));
}

export async function getFederation(request: FastifyRequest, source: string): Promise<Federation> {
  const row = await request.server.db
    .selectFrom('federations')
    .selectAll()
    .where('source_id', '=', source)
    .executeTakeFirst();
  if (!row) throw notFound(FEDERATION_MESSAGES.notFound);
  return answerOf(row, new Map((await candidates(request)).map((c) => [c.id, c])));
}

/** One member reached by the management deployment: this one directly, another through its service token. */
interface Member {
  candidate: FederationCandidate;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }>;
}

async function memberOf(request: FastifyRequest, candidate: FederationCandidate): Promise<Member> {
  if (candidate.id === THIS_DEPLOYMENT) {
    return { candidate, call: () => Promise.reject(new Error('this deployment is called directly')) };
  }
  const token = await deploymentToken(request.server, candidate.id);
  return {
    candidate,
    call: async (method, path, body) => callDeployment(request.server, candidate.url, path, { method, token, body }),
  };
}

const fail = (name: string, detail: string) =>
  new HttpError(502, `${formatMessage(FEDERATION_MESSAGES.memberUnreachable, { name })}: ${detail}`);

const jsonOf = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** A token on `peer` for `sender` to bring its changes: administrators' rights there, no expiry, revocable. */
async function mintToken(
  request: FastifyRequest,
  peer: Member,
  sender: FederationCandidate,
): Promise<{ token: string; id: string }> {
  const description = `Access federation ${sender.name} (${sender.url})`.slice(0, 1024);
  if (peer.candidate.id === THIS_DEPLOYMENT) {
    if (request.principal.kind !== 'user') throw new HttpError(401, 'Sign in first.');
    const created = await createAccessToken(request.server.db, request.principal.user, {
      description,
      expiresIn: 0,
      scope: TOKEN_SCOPE_ADMIN,
    });
    return { token: created.token, id: created.row.id };
  }
  const answer = await peer
    .call('POST', '/access/api/v1/tokens', { description, scope: TOKEN_SCOPE_ADMIN, expires_in: 0 })
    .catch((error: unknown) => {
      throw fail(peer.candidate.name, String(error instanceof Error ? error.message : error));
    });
  const body = jsonOf(answer.body);
  if (answer.status !== 200 || typeof body.access_token !== 'string')
    throw fail(peer.candidate.name, `the deployment answered ${answer.status}`);
  return { token: body.access_token, id: String(body.token_id) };
}

async function configure(request: FastifyRequest, member: Member, config: MemberConfig | null): Promise<void> {
  const who = auditActor(request);
  if (member.candidate.id === THIS_DEPLOYMENT) {
    if (config) await setMemberConfig(request.server, who, config);
    else await clearMemberConfig(request.server, who);
    return;
  }
  const answer = await member
    .call(config ? 'PUT' : 'DELETE', '/access/api/v1/federation/member', config ?? undefined)
    .catch((error: unknown) => {
      throw fail(member.candidate.name, String(error instanceof Error ? error.message : error));
    });
  if (answer.status >= 300) throw fail(member.candidate.name, `the deployment answered ${answer.status}`);
}

async function stateOfMember(request: FastifyRequest, member: Member): Promise<MemberState> {
  if (member.candidate.id === THIS_DEPLOYMENT) return memberState(request.server);
  const answer = await member.call('GET', '/access/api/v1/federation/member').catch((error: unknown) => {
    throw fail(member.candidate.name, String(error instanceof Error ? error.message : error));
  });
  if (answer.status !== 200) throw fail(member.candidate.name, `the deployment answered ${answer.status}`);
  return JSON.parse(answer.body) as MemberState;
}

/**
 * Saves a federation (a whole mesh, or a star by its source), replacing the one these members
 * had: every member is reached first (nothing changes when one cannot be), each sender gets a
 * token on each of its peers, then each member its part. A member that fails midway has the
 * others' new parts taken back and the new tokens revoked.
 */
export async function saveFederation(request: FastifyRequest, body: FederationBody): Promise<Federation[]> {
  const app = request.server;
  const parsed = federationBodySchema.parse(body);
  const known = new Map((await candidates(request)).map((c) => [c.id, c]));
  const ids = parsed.topology === 'MESH' ? [...new Set(parsed.members)] : [parsed.source!, ...new Set(parsed.members)];
  const unknown = ids.find((id) => !known.has(id));
  if (unknown) throw badRequest(FEDERATION_MESSAGES.unknownMember, 'members');
  // the federation being replaced: the mesh these members form, or the star of this source
  const existing = await app.db.selectFrom('federations').selectAll().execute();
  const replaced = new Set(
    existing
      .filter((row) => (parsed.topology === 'STAR' ? row.source_id === parsed.source : ids.includes(row.source_id)))
      .map((row) => row.group_id),
  );
  for (const row of existing) {
    if (replaced.has(row.group_id)) continue;
    const involved = [row.source_id, ...(JSON.parse(row.targets) as Target[]).map((t) => t.id)];
    if (involved.some((id) => ids.includes(id))) throw conflict(FEDERATION_MESSAGES.busy, 'members');
  }
  const members = new Map<string, Member>();
  for (const id of ids) members.set(id, await memberOf(request, known.get(id)!));
  // every member answers before anything changes
  for (const member of members.values()) await stateOfMember(request, member);

  const groupId = randomUUID();
  const senders =
    parsed.topology === 'MESH'
      ? ids.map((id) => ({ id, peers: ids.filter((other) => other !== id) }))
      : [{ id: parsed.source!, peers: ids.slice(1) }];
  const minted: { member: Member; token: string }[] = [];
  const configured: Member[] = [];
  const manager = known.get(THIS_DEPLOYMENT)!;
  const rows: { source_id: string; targets: Target[] }[] = [];
  try {
    const peersOf = new Map<string, MemberConfig['peers']>();
    for (const sender of senders) {
      const peers: MemberConfig['peers'] = [];
      const targets: Target[] = [];
      for (const peerId of sender.peers) {
        const peer = members.get(peerId)!;
        const token = await mintToken(request, peer, known.get(sender.id)!);
        minted.push({ member: peer, token: token.token });
        peers.push({ ...peer.candidate, token: token.token });
        targets.push({ ...peer.candidate, token_id: token.id });
      }
      peersOf.set(sender.id, peers);
      rows.push({ source_id: sender.id, targets });
    }
    for (const [id, member] of members) {
      await configure(request, member, {
        group_id: groupId,
        topology: parsed.topology,
        self: member.candidate,
        manager,
        peers: peersOf.get(id) ?? [],
        entity_types: parsed.entity_types,
        permissions_filter: parsed.permissions_filter,
      });
      configured.push(member);
    }
  } catch (error) {
    for (const member of configured) await configure(request, member, null).catch(() => undefined);
    for (const { member, token } of minted) {
      if (member.candidate.id === THIS_DEPLOYMENT) continue;
      await member.call('POST', '/access/api/v1/tokens/revoke', { token }).catch(() => undefined);
    }
    throw error;
  }
  // members of the replaced federation that are not in this one leave it
  const leaving = existing
    .filter((row) => replaced.has(row.group_id))
    .flatMap((row) => [row.source_id, ...(JSON.parse(row.targets) as Target[]).map((t) => t.id)])
    .filter((id, i, all) => all.indexOf(id) === i && !ids.includes(id) && known.has(id));
  for (const id of leaving)
    await configure(request, await memberOf(request, known.get(id)!), null).catch(() => undefined);

  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    if (replaced.size)
      await trx
        .deleteFrom('federations')
        .where('group_id', 'in', [...replaced])
        .execute();
    await trx
      .insertInto('federations')
      .values(
        rows.map((row) => ({
          source_id: row.source_id,
          group_id: groupId,
          topology: parsed.topology,
          targets: JSON.stringify(row.targets),
          entity_types: JSON.stringify(parsed.entity_types),
          permissions_filter: JSON.stringify(parsed.permissions_filter),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'system',
        action: replaced.size ? 'update access federation' : 'create access federation',
        target: ids.map((id) => known.get(id)!.name).join(', '),
        after: { topology: parsed.topology, entity_types: parsed.entity_types },
      },
    });
  });
  return (await listFederations(request)).filter((f) => f.group_id === groupId);
}

/** Removes the federation a source belongs to (a whole mesh, or the star): every member leaves it. */
export async function deleteFederation(request: FastifyRequest, source: string): Promise<{ failed: string[] }> {
  const app = request.server;
  const row = await app.db.selectFrom('federations').selectAll().where('source_id', '=', source).executeTakeFirst();
  if (!row) throw notFound(FEDERATION_MESSAGES.notFound);
  const group = await app.db.selectFrom('federations').selectAll().where('group_id', '=', row.group_id).execute();
  const known = new Map((await candidates(request)).map((c) => [c.id, c]));
  const ids = [
    ...new Set(group.flatMap((r) => [r.source_id, ...(JSON.parse(r.targets) as Target[]).map((t) => t.id)])),
  ];
  const failed: string[] = [];
  for (const id of ids) {
    const candidate = known.get(id);
    if (!candidate) continue;
    try {
      await configure(request, await memberOf(request, candidate), null);
    } catch {
      failed.push(candidate.name);
    }
  }
  await app.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('federations').where('group_id', '=', row.group_id).execute();
    await recordChange(trx, auditActor(request), {
      audit: {
        category: 'system',
        action: 'delete access federation',
        target: ids.map((id) => known.get(id)?.name ?? id).join(', '),
      },
    });
  });
  return { failed };
}

/** A full re-sync from a source to all its targets (the source sends every entity it federates). */
export async function broadcastFrom(
  request: FastifyRequest,
  source: string,
  adminCredentials: boolean,
): Promise<BroadcastAnswer> {
  const app = request.server;
  const row = await app.db.selectFrom('federations').selectAll().where('source_id', '=', source).executeTakeFirst();
  if (!row || !(JSON.parse(row.targets) as Target[]).length) throw conflict(FEDERATION_MESSAGES.noTargets);
  const known = new Map((await candidates(request)).map((c) => [c.id, c]));
  const candidate = known.get(source);
  if (!candidate) throw conflict(FEDERATION_MESSAGES.noTargets);
  let result: { sent: number; failed: { target: string; error: string }[] };
  if (source === THIS_DEPLOYMENT) result = await broadcast(app, { adminCredentials });
  else {
    const member = await memberOf(request, candidate);
    const answer = await member
      .call('POST', '/access/api/v1/federation/broadcast', { admin_credentials: adminCredentials })
      .catch((error: unknown) => {
        throw fail(candidate.name, String(error instanceof Error ? error.message : error));
      });
    if (answer.status !== 200) throw fail(candidate.name, `the deployment answered ${answer.status}`);
    result = JSON.parse(answer.body) as typeof result;
  }
  await recordChange(app.db, auditActor(request), {
    audit: {
      category: 'system',
      action: 'broadcast access federation',
      target: candidate.name,
      after: { builtInAdminCredentials: adminCredentials },
    },
  });
  return {
    message: result.failed.length
      ? `${FEDERATION_MESSAGES.broadcastPartlyFailed} ${result.failed.map((f) => f.target).join(', ')}`
      : FEDERATION_MESSAGES.broadcastStarted,
    ...result,
  };
}

/** How a member of a federation is doing (its peers' backlog, the conflicts it settled). */
export async function memberStateOf(request: FastifyRequest, id: string): Promise<MemberState> {
  const known = new Map((await candidates(request)).map((c) => [c.id, c]));
  const candidate = known.get(id);
  if (!candidate) throw notFound(FEDERATION_MESSAGES.unknownMember);
  return stateOfMember(request, await memberOf(request, candidate));
}
