import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, auditActor } from '../../core/audit.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import { scanningPermissions } from '../../core/principals.js';
import { findRepository } from '../repositories/index.js';
import { webhookDomain } from '../webhooks/index.js';
import { ignoreRuleBody, policyBody, watchBody, type Policy, type Watch } from '@arca/contracts';
import {
  addIgnoreRule,
  deleteIgnoreRule,
  deletePolicy,
  deleteWatch,
  listIgnoreRules,
  listPolicies,
  listWatches,
  savePolicy,
  saveWatch,
} from './scanning.policies.store.js';

const ROLE_MISSING = {
  isPolicyViewer:
    'Viewing security policies and watches requires the policy viewer, policy manager or watch manager role.',
  isPolicyManager: 'Managing security policies requires the policy manager role.',
  isWatchManager: 'Managing watches and ignore rules requires the watch manager role.',
};

const nameParams = z.object({ name: z.string().min(1).max(128) });
const info = z.object({ info: z.string() });
const stamps = { author: z.string(), created: z.string(), modified: z.string() };
const iso = (ms: number) => new Date(ms).toISOString();

/** The ignore rule as Xray lists it. */
const ignoreRuleAnswer = ignoreRuleBody.extend({
  id: z.string(),
  author: z.string(),
  created: z.string(),
  is_expired: z.boolean(),
});

/**
 * Policies, watches and ignore rules in the shape of Xray's REST API: `/xray/api/v2/policies`,
 * `/xray/api/v2/watches`, `/xray/api/v1/ignore_rules`. Policy managers write policies, watch
 * managers watches and ignore rules, policy viewers read them (administrators: all); every change
 * is audited and takes effect on the next download (what they block is read again).
 */
export async function scanPolicyRoutes(untyped: FastifyInstance): Promise<void> {
  const app = untyped.withTypeProvider<ZodTypeProvider>();
  // who may: read (any of the roles), write policies, write watches and ignore rules
  const as = (role: 'isPolicyViewer' | 'isPolicyManager' | 'isWatchManager') => ({
    config: { access: 'user' as const },
    preHandler: async (request: FastifyRequest) => {
      if (!(await scanningPermissions(app.db, request.principal))[role]) throw forbidden(ROLE_MISSING[role]);
    },
  });
  // as stored (the request body's checks and case folding are not run again on the way out)
  const policyAnswer = z.object({
    name: z.string(),
    type: z.enum(['security', 'license']),
    description: z.string(),
    rules: z.array(
      z.object({
        name: z.string(),
        priority: z.number().optional(),
        criteria: z.record(z.string(), z.unknown()),
        actions: z.record(z.string(), z.unknown()),
      }),
    ),
    ...stamps,
  });
  const watchAnswer = watchBody.extend(stamps);

  app.post(
    '/xray/ui/permissions/current',
    {
      config: { access: 'public' },
      schema: {
        summary: 'What the caller may do in security scanning (the console asks with the project it shows)',
        response: {
          200: z.object({
            canManage: z.boolean(),
            isWatchManager: z.boolean(),
            isPolicyManager: z.boolean(),
            isPolicyViewer: z.boolean(),
          }),
        },
      },
    },
    async (request) => scanningPermissions(app.db, request.principal),
  );

  const policyOrThrow = async (name: string) => {
    const policy = (await listPolicies(app.db)).find((p) => p.name === name);
    if (!policy) throw notFound(`Policy '${name}' does not exist.`);
    return policy;
  };
  const showPolicy = ({ created, modified, ...p }: Awaited<ReturnType<typeof policyOrThrow>>) => ({
    ...p,
    created: iso(created),
    modified: iso(modified),
  });

  app.get(
    '/xray/api/v2/policies',
    {
      ...as('isPolicyViewer'),
      schema: { summary: 'The security and license policies', response: { 200: z.array(policyAnswer) } },
    },
    async () => (await listPolicies(app.db)).map(showPolicy),
  );
  app.get(
    '/xray/api/v2/policies/:name',
    { ...as('isPolicyViewer'), schema: { summary: 'A policy', params: nameParams, response: { 200: policyAnswer } } },
    async (request) => showPolicy(await policyOrThrow(request.params.name)),
  );

  const writePolicy = async (request: { body: Policy } & Parameters<typeof audit>[0], replace: boolean) => {
    const policy = request.body;
    // the webhooks a rule tells exist and listen to security violations
    for (const rule of policy.rules)
      for (const key of rule.actions.webhooks) {
        const domain = await webhookDomain(app.db, key);
        if (domain === undefined) throw badRequest(`Rule '${rule.name}': webhook '${key}' does not exist.`, 'rules');
        if (domain !== 'security')
          throw badRequest(
            `Rule '${rule.name}': webhook '${key}' is not told of security violations; choose the Security violation event for it.`,
            'rules',
          );
      }
    const before = replace ? await policyOrThrow(policy.name) : undefined;
    await app.db.transaction().execute(async (trx) => {
      if (!(await savePolicy(trx, policy, auditActor(request).actor, replace)))
        throw conflict(`Policy '${policy.name}' already exists.`, 'name');
      await audit(
        request,
        {
          category: 'security',
          action: replace ? 'update policy' : 'create policy',
          target: policy.name,
          before,
          after: policy,
        },
        trx,
      );
    });
  };
  app.post(
    '/xray/api/v2/policies',
    { ...as('isPolicyManager'), schema: { summary: 'Creates a policy', body: policyBody, response: { 201: info } } },
    async (request, reply) => {
      await writePolicy(request, false);
      return reply.status(201).send({ info: 'Policy created successfully.' });
    },
  );
  app.put(
    '/xray/api/v2/policies/:name',
    {
      ...as('isPolicyManager'),
      schema: { summary: 'Replaces a policy', params: nameParams, body: policyBody, response: { 200: info } },
    },
    async (request) => {
      if (request.body.name !== request.params.name) throw badRequest('A policy keeps its name.', 'name');
      await writePolicy(request, true);
      return { info: 'Policy updated successfully.' };
    },
  );
  app.delete(
    '/xray/api/v2/policies/:name',
    {
      ...as('isPolicyManager'),
      schema: { summary: 'Deletes a policy no watch applies', params: nameParams, response: { 200: info } },
    },
    async (request) => {
      const { name } = request.params;
      const before = await policyOrThrow(name);
      const watch = (await listWatches(app.db)).find((w) => w.assigned_policies.some((p) => p.name === name));
      if (watch)
        throw conflict(
          `Policy '${name}' is applied by watch '${watch.general_data.name}'; remove it from the watch first.`,
        );
      await app.db.transaction().execute(async (trx) => {
        await deletePolicy(trx, name);
        await audit(request, { category: 'security', action: 'delete policy', target: name, before }, trx);
      });
      return { info: 'Policy deleted successfully.' };
    },
  );

  const watchOrThrow = async (name: string) => {
    const watch = (await listWatches(app.db)).find((w) => w.general_data.name === name);
    if (!watch) throw notFound(`Watch '${name}' does not exist.`);
    return watch;
  };
  const showWatch = ({ created, modified, ...w }: Awaited<ReturnType<typeof watchOrThrow>>) => ({
    ...w,
    created: iso(created),
    modified: iso(modified),
  });
  /** What a watch names exists: its repositories, and its policies with the type given. */
  const checkWatch = async (watch: Watch) => {
    const policies = await listPolicies(app.db);
    for (const assigned of watch.assigned_policies) {
      const policy = policies.find((p) => p.name === assigned.name);
      if (!policy) throw badRequest(`Policy '${assigned.name}' does not exist.`, 'assigned_policies');
      if (policy.type !== assigned.type)
        throw badRequest(
          `Policy '${assigned.name}' is a ${policy.type} policy, not a ${assigned.type} one.`,
          'assigned_policies',
        );
    }
    for (const resource of watch.project_resources.resources) {
      if (resource.type !== 'repository') continue;
      const repo = await findRepository(app.db, resource.name);
      if (!repo) throw badRequest(`Repository '${resource.name}' does not exist.`, 'project_resources');
      // what a virtual repository serves is its members' files: those are what a watch covers
      if (repo.rclass === 'virtual')
        throw badRequest(
          `Repository '${resource.name}' is virtual: watch the local and remote repositories it combines.`,
          'project_resources',
        );
    }
  };
  app.get(
    '/xray/api/v2/watches',
    { ...as('isPolicyViewer'), schema: { summary: 'The watches', response: { 200: z.array(watchAnswer) } } },
    async () => (await listWatches(app.db)).map(showWatch),
  );
  app.get(
    '/xray/api/v2/watches/:name',
    { ...as('isPolicyViewer'), schema: { summary: 'A watch', params: nameParams, response: { 200: watchAnswer } } },
    async (request) => showWatch(await watchOrThrow(request.params.name)),
  );
  const writeWatch = async (request: { body: Watch } & Parameters<typeof audit>[0], replace: boolean) => {
    const watch = request.body;
    const name = watch.general_data.name;
    const before = replace ? await watchOrThrow(name) : undefined;
    await checkWatch(watch);
    await app.db.transaction().execute(async (trx) => {
      if (!(await saveWatch(trx, watch, auditActor(request).actor, replace)))
        throw conflict(`Watch '${name}' already exists.`, 'general_data.name');
      await audit(
        request,
        { category: 'security', action: replace ? 'update watch' : 'create watch', target: name, before, after: watch },
        trx,
      );
    });
  };
  app.post(
    '/xray/api/v2/watches',
    { ...as('isWatchManager'), schema: { summary: 'Creates a watch', body: watchBody, response: { 201: info } } },
    async (request, reply) => {
      await writeWatch(request, false);
      return reply.status(201).send({ info: 'Watch created successfully.' });
    },
  );
  app.put(
    '/xray/api/v2/watches/:name',
    {
      ...as('isWatchManager'),
      schema: { summary: 'Replaces a watch', params: nameParams, body: watchBody, response: { 200: info } },
    },
    async (request) => {
      if (request.body.general_data.name !== request.params.name)
        throw badRequest('A watch keeps its name.', 'general_data.name');
      await writeWatch(request, true);
      return { info: 'Watch updated successfully.' };
    },
  );
  app.delete(
    '/xray/api/v2/watches/:name',
    { ...as('isWatchManager'), schema: { summary: 'Deletes a watch', params: nameParams, response: { 200: info } } },
    async (request) => {
      const before = await watchOrThrow(request.params.name);
      await app.db.transaction().execute(async (trx) => {
        await deleteWatch(trx, request.params.name);
        await audit(
          request,
          { category: 'security', action: 'delete watch', target: request.params.name, before },
          trx,
        );
      });
      return { info: 'Watch deleted successfully.' };
    },
  );

  const showRule = (rule: Awaited<ReturnType<typeof listIgnoreRules>>[number], now = Date.now()) => ({
    id: rule.id,
    notes: rule.notes,
    ...(rule.expiresAt !== null ? { expires_at: iso(rule.expiresAt) } : {}),
    ignore_filters: rule.filters,
    author: rule.author,
    created: iso(rule.created),
    is_expired: rule.expiresAt !== null && rule.expiresAt <= now,
  });
  app.get(
    '/xray/api/v1/ignore_rules',
    {
      ...as('isPolicyViewer'),
      schema: {
        summary: 'The ignore rules, newest last',
        response: { 200: z.object({ data: z.array(ignoreRuleAnswer), total_count: z.number() }) },
      },
    },
    async () => {
      const rules = (await listIgnoreRules(app.db)).map((r) => showRule(r));
      return { data: rules, total_count: rules.length };
    },
  );
  app.get(
    '/xray/api/v1/ignore_rules/:id',
    {
      ...as('isPolicyViewer'),
      schema: { summary: 'An ignore rule', params: z.object({ id: z.string() }), response: { 200: ignoreRuleAnswer } },
    },
    async (request) => {
      const rule = (await listIgnoreRules(app.db)).find((r) => r.id === request.params.id);
      if (!rule) throw notFound(`Ignore rule '${request.params.id}' does not exist.`);
      return showRule(rule);
    },
  );
  app.post(
    '/xray/api/v1/ignore_rules',
    {
      ...as('isWatchManager'),
      schema: {
        summary: 'Sets findings aside: by vulnerability, license or component, with a reason and an expiry',
        body: ignoreRuleBody,
        response: { 201: info },
      },
    },
    async (request, reply) => {
      const { notes, expires_at, ignore_filters: filters } = request.body;
      const expiresAt = expires_at === undefined ? null : Date.parse(expires_at);
      if (expiresAt !== null && expiresAt <= Date.now()) throw badRequest('expires_at is in the past.', 'expires_at');
      const [policies, watches] = await Promise.all([listPolicies(app.db), listWatches(app.db)]);
      for (const name of filters.policies ?? [])
        if (!policies.some((p) => p.name === name))
          throw badRequest(`Policy '${name}' does not exist.`, 'ignore_filters.policies');
      for (const name of filters.watches ?? [])
        if (!watches.some((w) => w.general_data.name === name))
          throw badRequest(`Watch '${name}' does not exist.`, 'ignore_filters.watches');
      const id = await app.db.transaction().execute(async (trx) => {
        const added = await addIgnoreRule(trx, { notes, expiresAt, filters }, auditActor(request).actor);
        await audit(
          request,
          { category: 'security', action: 'create ignore rule', target: added, after: request.body },
          trx,
        );
        return added;
      });
      return reply.status(201).send({ info: `Successfully added ignore rule with id: ${id}` });
    },
  );
  app.delete(
    '/xray/api/v1/ignore_rules/:id',
    {
      ...as('isWatchManager'),
      schema: { summary: 'Deletes an ignore rule', params: z.object({ id: z.string() }), response: { 200: info } },
    },
    async (request) => {
      const before = (await listIgnoreRules(app.db)).find((r) => r.id === request.params.id);
      if (!before) throw notFound(`Ignore rule '${request.params.id}' does not exist.`);
      await app.db.transaction().execute(async (trx) => {
        await deleteIgnoreRule(trx, before.id);
        await audit(request, { category: 'security', action: 'delete ignore rule', target: before.id, before }, trx);
      });
      return { info: 'Ignore rule deleted successfully.' };
    },
  );
}
