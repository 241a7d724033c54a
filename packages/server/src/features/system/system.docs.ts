import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';

/** The project's own guides, where they are installed (the repository's root, beside `packages/`). */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..', '..', '..');

/** The guides the Education Center shows, by id. */
export const GUIDES = [
  {
    id: 'readme',
    title: 'Arca guide',
    file: 'README.md',
    summary: 'Running Arca, every client set up, who may do what, operating it, configuration',
  },
  {
    id: 'deploy',
    title: 'Deployment guide',
    file: 'docs/deploy/README.md',
    summary: 'systemd, containers, nginx in front, PostgreSQL and object storage, several nodes',
  },
  {
    id: 'decisions',
    title: 'Design decisions',
    file: 'docs/decisions.md',
    summary: 'Why Arca works the way it does, one paragraph each',
  },
] as const;

const guideSchema = z.object({ id: z.string(), title: z.string(), summary: z.string(), available: z.boolean() });

/** The guides (`ui/docs`) and one guide's Markdown (`ui/docs/{id}`), to any signed-in user. */
export const docsRoutes: FastifyPluginAsyncZod = async (app) => {
  const read = (file: string) => fs.readFile(path.join(ROOT, file), 'utf8');
  app.get('/ui/docs', { config: { access: 'user' }, schema: { response: { 200: z.array(guideSchema) } } }, async () =>
    Promise.all(
      GUIDES.map(async ({ id, title, summary, file }) => ({
        id,
        title,
        summary,
        available: await fs.access(path.join(ROOT, file)).then(
          () => true,
          () => false,
        ),
      })),
    ),
  );
  app.get(
    '/ui/docs/:id',
    {
      config: { access: 'user' },
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: z.object({ title: z.string(), markdown: z.string() }) },
      },
    },
    async (request) => {
      const guide = GUIDES.find((g) => g.id === request.params.id);
      const markdown = guide && (await read(guide.file).catch(() => undefined));
      if (!guide || markdown === undefined) throw notFound('This guide is not installed with this deployment.');
      return { title: guide.title, markdown };
    },
  );
};
