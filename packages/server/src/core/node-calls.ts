import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import type { Db } from '../db/database.js';
import { HttpError, unauthorized } from './errors.js';
import { findNode, isOnline } from './nodes.js';
import { seal, unseal } from './sealing.js';

/** The header of a call one node makes to another, sealed with the deployment's key. */
export const NODE_CALL_HEADER = 'x-arca-node-call';
/** How long a node call's seal is good for. */
const NODE_CALL_TTL_MS = 60_000;
/** How long a node waits for another's answer. */
const NODE_CALL_TIMEOUT_MS = 15_000;

/**
 * Whether a request carries a node call sealed by this deployment for exactly this path and query,
 * made within the last minute: only nodes that hold the deployment's key can make one.
 */
export async function isNodeCall(db: Db, header: string | string[] | undefined, url: string): Promise<boolean> {
  if (typeof header !== 'string') return false;
  const opened = await unseal(db, 'node-call', header);
  if (!opened) return false;
  try {
    const { path, until } = JSON.parse(opened) as { path: string; until: number };
    return path === url && until >= Date.now();
  } catch {
    return false;
  }
}

/** Refuses a request that is not a node call of this deployment (the internal routes' guard). */
export async function requireNodeCall(db: Db, request: { headers: Record<string, unknown>; url: string }) {
  if (!(await isNodeCall(db, request.headers[NODE_CALL_HEADER] as string | string[] | undefined, request.url))) {
    throw unauthorized('Only another node of this deployment may make this call.');
  }
}

/**
 * A GET to another node of the deployment at `path`, sealed for that path: unknown, stopped or
 * unreachable nodes are refused with a message that says so.
 */
async function getFromNode(db: Db, nodeId: string, path: string, accept: string): Promise<Dispatcher.ResponseData> {
  const node = await findNode(db, nodeId);
  if (!node) throw new HttpError(404, `Node '${nodeId}' is unknown.`);
  if (!node.address || !isOnline(node)) {
    throw new HttpError(503, `Node '${nodeId}' is not running; what it keeps cannot be read now.`);
  }
  const token = await seal(db, 'node-call', JSON.stringify({ path, until: Date.now() + NODE_CALL_TTL_MS }));
  try {
    return await request(`${node.address}${path}`, {
      headers: { [NODE_CALL_HEADER]: token, accept },
      headersTimeout: NODE_CALL_TIMEOUT_MS,
      bodyTimeout: NODE_CALL_TIMEOUT_MS,
    });
  } catch (error) {
    throw new HttpError(
      502,
      `Node '${nodeId}' did not answer: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Calls another node at `path` (a GET answered with JSON) and answers its status and body. */
export async function callNode(db: Db, nodeId: string, path: string): Promise<{ status: number; body: unknown }> {
  const answer = await getFromNode(db, nodeId, path, 'application/json');
  return { status: answer.statusCode, body: await answer.body.json() };
}

/** A whole file another node serves (a log file for a support bundle), with its modification time. */
export async function fetchNodeFile(
  db: Db,
  nodeId: string,
  path: string,
): Promise<{ text: string; modifiedMs: number }> {
  const answer = await getFromNode(db, nodeId, path, 'text/plain');
  const text = await answer.body.text();
  if (answer.statusCode !== 200)
    throw new HttpError(502, `Node '${nodeId}' answered ${answer.statusCode} for ${path}.`);
  const modified = Date.parse(String(answer.headers['last-modified'] ?? ''));
  return { text, modifiedMs: Number.isNaN(modified) ? Date.now() : modified };
}

/** A file another node serves (a support bundle's zip), as a stream to pass on, with its length. */
export async function openNodeFile(
  db: Db,
  nodeId: string,
  path: string,
): Promise<{ body: Readable; length: number | undefined }> {
  const answer = await getFromNode(db, nodeId, path, 'application/octet-stream');
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    throw new HttpError(502, `Node '${nodeId}' answered ${answer.statusCode} for ${path}.`);
  }
  const length = Number(answer.headers['content-length']);
  return { body: answer.body, length: Number.isFinite(length) ? length : undefined };
}
