import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_MESSAGES } from '@arca/contracts';
import { errorBody } from './errors.js';

/**
 * Serves the built console under /ui/ in history mode: a path that is not a file and not an API
 * call answers the application's index.html, which routes it in the browser.
 */
export const consolePlugin = fp(
  async (app: FastifyInstance, options: { webDir: string }) => {
    const indexFile = path.join(options.webDir, 'index.html');
    const built = fs.existsSync(indexFile);
    app.get('/', { config: { access: 'public' } }, (_request, reply) => reply.redirect('/ui/'));
    app.get('/ui', { config: { access: 'public' } }, (_request, reply) => reply.redirect('/ui/'));

    if (built) {
      await app.register(fastifyStatic, {
        root: options.webDir,
        prefix: '/ui/',
        wildcard: false,
        index: false,
        setHeaders: (res, filePath) => {
          const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    }

    const sendApp = (reply: import('fastify').FastifyReply) => {
      if (!built) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The console is not built. Run `npm run build` (or `npm start`, which builds it).');
      }
      return reply.header('Cache-Control', 'no-cache').type('text/html').send(fs.createReadStream(indexFile));
    };
    app.get('/ui/', { config: { access: 'public' } }, (_request, reply) => sendApp(reply));
    app.get('/ui/*', { config: { access: 'public' } }, (request, reply) => {
      if (request.url.startsWith('/ui/api/') || request.url.startsWith('/ui/assets/')) {
        return reply.status(404).send(errorBody(404, ERROR_MESSAGES.notFound));
      }
      return sendApp(reply);
    });
  },
  { name: 'arca-console' },
);
