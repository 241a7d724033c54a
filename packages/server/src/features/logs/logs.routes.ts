import fs from 'node:fs';
import path from 'node:path';
import {
  LIVE_LOG_DEFAULT_REFRESH_MS,
  LOG_FILE_PATTERN,
  LOG_PRODUCTS,
  logConfigQuerySchema,
  logConfigSchema,
  logDataQuerySchema,
  logDataSchema,
  type LogConfig,
  type LogData,
  type LogProduct,
} from '@arca/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, notFound } from '../../core/errors.js';
import { logsDirOf } from '../../core/logger.js';
import { callNode, requireNodeCall } from '../../core/node-calls.js';
import { isOnline, nodeRows } from '../../core/nodes.js';
import { listLogFiles, readLog } from './logs.files.js';

const productParams = z.object({ logType: z.enum(LOG_PRODUCTS, { message: 'Unknown log type.' }) });

/** The nodes whose logs can be read: this one first (the viewer's default), then the others running now. */
async function nodeIds(app: FastifyInstance): Promise<string[]> {
  const rows = await nodeRows(app.db);
  return [app.nodeId, ...rows.filter((row) => isOnline(row) && row.node_id !== app.nodeId).map((row) => row.node_id)];
}

/**
 * Where a node's log files are read: on this machine when its folder is here (this process, or
 * a sibling worker sharing the data directory), else through the node itself.
 */
function localDir(app: FastifyInstance, nodeId: string | undefined): string | undefined {
  const dir = logsDirOf(app.config.dataDir, nodeId || app.nodeId);
  return !nodeId || nodeId === app.nodeId || fs.existsSync(dir) ? dir : undefined;
}

async function logConfig(app: FastifyInstance, product: LogProduct, nodeId: string | undefined): Promise<LogConfig> {
  const dir = localDir(app, nodeId);
  const logs = dir
    ? listLogFiles(dir, product)
    : await viaNode<{ logs: string[] }>(app, nodeId!, `/api/internal/v1/logs/config/${product}`).then((a) => a.logs);
  return { logs, nodes: await nodeIds(app), refresh_rate_millis: LIVE_LOG_DEFAULT_REFRESH_MS };
}

async function logData(
  app: FastifyInstance,
  product: LogProduct,
  query: { nodeId?: string | undefined; id: string; file_size: number },
): Promise<LogData> {
  const dir = localDir(app, query.nodeId);
  if (dir) return readLog(dir, product, query.id, query.file_size);
  const search = new URLSearchParams({ id: query.id, file_size: String(query.file_size) });
  return viaNode<LogData>(app, query.nodeId!, `/api/internal/v1/logs/data/${product}?${search}`);
}

/** A call to the node that holds the files; its refusals pass through with their messages. */
async function viaNode<T>(app: FastifyInstance, nodeId: string, path: string): Promise<T> {
  const { status, body } = await callNode(app.db, nodeId, path);
  if (status >= 400) {
    const message =
      (body as { errors?: { message?: string }[] }).errors?.[0]?.message ?? `Node '${nodeId}' answered ${status}.`;
    throw new HttpError(status, message);
  }
  return body as T;
}

/** The live log viewer's calls (spec part 2 §7.15), under the console's API base: administrators only. */
export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/system/logs/config/:logType',
    {
      config: { access: 'admin' },
      schema: { params: productParams, querystring: logConfigQuerySchema, response: { 200: logConfigSchema } },
    },
    async (request) => logConfig(app, request.params.logType, request.query.nodeId),
  );
  app.get(
    '/system/logs/data/:logType',
    {
      config: { access: 'admin' },
      schema: { params: productParams, querystring: logDataQuerySchema, response: { 200: logDataSchema } },
    },
    async (request) => logData(app, request.params.logType, request.query),
  );
};

/**
 * The same reads where JFrog's live-logs CLI plugin makes them (`/artifactory/api/system/logs/…`,
 * the node in `X-JFrog-Node-Id`), for the repository service's logs; and the calls one node
 * makes to another for its own files, accepted only when sealed with the deployment's key.
 */
export const publicLogRoutes: FastifyPluginAsyncZod = async (app) => {
  const nodeHeader = (headers: Record<string, unknown>) => {
    const value = headers['x-jfrog-node-id'];
    return typeof value === 'string' && value ? value : undefined;
  };
  app.get(
    '/artifactory/api/system/logs/config',
    { config: { access: 'admin' }, schema: { response: { 200: logConfigSchema } } },
    async (request) => logConfig(app, 'jfrt', nodeHeader(request.headers)),
  );
  app.get(
    '/artifactory/api/system/logs/data',
    {
      config: { access: 'admin' },
      schema: { querystring: logDataQuerySchema.omit({ nodeId: true }), response: { 200: logDataSchema } },
    },
    async (request) => logData(app, 'jfrt', { ...request.query, nodeId: nodeHeader(request.headers) }),
  );

  const fromNode = (request: { headers: Record<string, unknown>; url: string }) => requireNodeCall(app.db, request);
  app.get(
    '/api/internal/v1/logs/config/:logType',
    { config: { access: 'public' }, schema: { params: productParams } },
    async (request) => {
      await fromNode(request);
      return { logs: listLogFiles(logsDirOf(app.config.dataDir, app.nodeId), request.params.logType) };
    },
  );
  // a whole file, for another node's support bundle
  app.get(
    '/api/internal/v1/logs/file/:name',
    {
      config: { access: 'public' },
      schema: { params: z.object({ name: z.string().regex(LOG_FILE_PATTERN, 'Unknown log file.') }) },
    },
    async (request, reply) => {
      await fromNode(request);
      await app.flushLogs();
      const file = path.join(logsDirOf(app.config.dataDir, app.nodeId), request.params.name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat) throw notFound(`The log file '${request.params.name}' does not exist on this node.`);
      return reply
        .type('text/plain; charset=utf-8')
        .header('last-modified', new Date(stat.mtimeMs).toUTCString())
        .send(fs.createReadStream(file));
    },
  );
  app.get(
    '/api/internal/v1/logs/data/:logType',
    {
      config: { access: 'public' },
      schema: { params: productParams, querystring: logDataQuerySchema.omit({ nodeId: true }) },
    },
    async (request) => {
      await fromNode(request);
      const { id, file_size } = request.query;
      return readLog(logsDirOf(app.config.dataDir, app.nodeId), request.params.logType, id, file_size);
    },
  );
};
