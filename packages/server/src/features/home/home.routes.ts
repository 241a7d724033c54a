import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { artifactCountSchema, homeWidgetInfoSchema } from '@arca/contracts';
import { flushDownloads } from '../artifacts/index.js';
import { artifactCount, homeInfo } from './home.service.js';

/** The home page's widgets (spec part 2 §7): what the caller may read, never more. */
export const homeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/ui/home/widget/artifactCount',
    { config: { access: 'public' }, schema: { response: { 200: artifactCountSchema } } },
    async (request) => ({ artifactCount: await artifactCount(app.db, request.principal) }),
  );
  app.get(
    '/ui/home/widget/info',
    { config: { access: 'public' }, schema: { response: { 200: homeWidgetInfoSchema } } },
    async (request) => {
      // download counts are batched in memory: the figures include the latest
      await flushDownloads(app.db);
      return homeInfo(app.db, request.principal);
    },
  );
};
