import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_MESSAGES } from '@arca/contracts';
import { errorBody } from './errors.js';

/**
 * Serves the built console under /ui/ in history mode: a path that is not a file and not an API
 * call answers the application's index.html, which routes it in the browser.
 */
export const consolePlugin = fp(
  async (parent: FastifyInstance, options: { webDir: string }) => {
    await parent.register(async (app) => {
      // The console's own files are public: the application decides what to show.
      app.addHook('onRoute', (route) => {
        route.config = { ...(route.config as object), access: 'public' };
      });
      await serveConsole(app, options.webDir);
    });
  },
  { name: 'arca-console' },
);

async function serveConsole(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = path.join(webDir, 'index.html');
  const built = fs.existsSync(indexFile);
  app.get('/', (_request, reply) => reply.redirect('/ui/'));
  app.get('/ui', (_request, reply) => reply.redirect('/ui/'));

  if (built) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/ui/',
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  const sendApp = (reply: FastifyReply) => {
    if (!built) {
      return reply
        .status(503)
        .type('text/plain')
        .send('The console is not built. Run `npm run build` (or `npm start`, which builds it).');
    }
    return reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile));
  };
  app.get('/ui/', (_request, reply) => sendApp(reply));
  app.get('/ui/*', (request, reply) => {
    if (request.url.startsWith('/ui/api/') || request.url.startsWith('/ui/assets/')) {
      return reply.status(404).send(errorBody(404, ERROR_MESSAGES.notFound));
    }
    return sendApp(reply);
  });
}

/** Base of every console call: the spec's paths are mounted below it unchanged. */
export const CONSOLE_API_PREFIX = '/ui/api/v1';
