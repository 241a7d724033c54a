import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PROJECT_KEY_MAX,
  PROJECT_ROLES,
  PROJECT_ROLE_DESCRIPTIONS,
  PROJECT_ROLE_LABELS,
  assignResourcesSchema,
  projectFormSchema,
  projectMembersBodySchema,
  projectRepositorySchema,
  projectSchema,
  PROJECT_MESSAGES,
  formatMessage,
} from '@arca/contracts';
import { badRequest } from '../../core/errors.js';
import { createRepository, recordRepositoryChange } from '../repositories/index.js';
import { audit } from '../../core/audit.js';
import {
  assignRepositories,
  createProject,
  deleteProject,
  getProject,
  listProjects,
  requireProjectAdmin,
  setMembers,
  unassignedRepositoryCount,
  updateProject,
} from './projects.service.js';

const keyParams = z.object({ key: z.string().min(1).max(PROJECT_KEY_MAX) });

/** Projects (spec part 2 §7.2, as far as they apply): create, edit, members, repositories. */
export const projectsRoutes: FastifyPluginAsyncZod = async (app) => {
  const user = { access: 'user' as const };

  app.get('/projects', { config: user, schema: { response: { 200: z.array(projectSchema) } } }, (request) =>
    listProjects(app.db, request.principal),
  );

  /** The access service's shape of the same list. */
  app.get('/access/projects', { config: user }, async (request) =>
    (await listProjects(app.db, request.principal)).map((p) => ({
      project_key: p.projectKey,
      display_name: p.displayName,
      description: p.description,
    })),
  );

  app.get(
    '/projects/:key',
    { config: user, schema: { params: keyParams, response: { 200: projectSchema } } },
    (request) => getProject(app.db, request.principal, request.params.key),
  );

  app.post('/projects', { schema: { body: projectFormSchema, response: { 200: projectSchema } } }, async (request) => {
    await createProject(app.db, request.body);
    const project = await getProject(app.db, request.principal, request.body.projectKey);
    await audit(request, { category: 'project', action: 'create', target: project.projectKey, after: project });
    return project;
  });

  app.put(
    '/projects/:key',
    {
      config: user,
      schema: {
        params: keyParams,
        body: projectFormSchema.omit({ projectKey: true }),
        response: { 200: projectSchema },
      },
    },
    async (request) => {
      const { key } = request.params;
      await requireProjectAdmin(app.db, request.principal, key);
      const before = await getProject(app.db, request.principal, key);
      await updateProject(app.db, key, request.body);
      const after = await getProject(app.db, request.principal, key);
      await audit(request, { category: 'project', action: 'update', target: key, before, after });
      return after;
    },
  );

  app.delete('/projects/:key', { schema: { params: keyParams } }, async (request, reply) => {
    await deleteProject(app.db, request.params.key);
    await audit(request, { category: 'project', action: 'delete', target: request.params.key });
    return reply.status(204).send();
  });

  app.put(
    '/projects/:key/members',
    { config: user, schema: { params: keyParams, body: projectMembersBodySchema, response: { 200: projectSchema } } },
    async (request) => {
      const { key } = request.params;
      await requireProjectAdmin(app.db, request.principal, key);
      const before = (await getProject(app.db, request.principal, key)).members;
      await setMembers(app.db, key, request.body.members);
      const after = await getProject(app.db, request.principal, key);
      await audit(request, {
        category: 'project',
        action: 'members',
        target: key,
        before: { members: before },
        after: { members: after.members },
      });
      return after;
    },
  );

  app.post(
    '/projects/resources/assign',
    { config: user, schema: { body: assignResourcesSchema } },
    async (request, reply) => {
      await assignRepositories(app.db, request.principal, request.body.projectKey, request.body.repositories);
      await audit(request, {
        category: 'project',
        action: request.body.projectKey ? 'assign repositories' : 'unassign repositories',
        target: request.body.projectKey ?? request.body.repositories.join(', '),
        after: request.body,
      });
      return reply.status(204).send();
    },
  );

  /** A project admin's own repositories: local ones, in the project, keyed '{project}-…'. */
  app.post(
    '/projects/:key/repositories',
    { config: user, schema: { params: keyParams, body: projectRepositorySchema, response: { 200: projectSchema } } },
    async (request) => {
      const { key } = request.params;
      await requireProjectAdmin(app.db, request.principal, key);
      if (!request.body.key.startsWith(`${key}-`)) {
        throw badRequest(formatMessage(PROJECT_MESSAGES.repoKeyPrefix, { project: key }));
      }
      const row = await createRepository(
        app.db,
        { ...request.body, rclass: 'local' },
        recordRepositoryChange(request),
        {
          projectKey: key,
        },
      );
      await audit(request, {
        category: 'project',
        action: 'create repository',
        target: key,
        after: { repository: row.key },
      });
      return getProject(app.db, request.principal, key);
    },
  );

  app.get('/roles', { config: user }, () =>
    PROJECT_ROLES.map((role) => ({
      name: role,
      label: PROJECT_ROLE_LABELS[role],
      description: PROJECT_ROLE_DESCRIPTIONS[role],
    })),
  );

  app.get('/ui/projects/unassigned/statistics', async () => ({
    repositories: await unassignedRepositoryCount(app.db),
  }));
};
