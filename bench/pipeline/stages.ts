/**
 * Where a request's CPU time goes, from a V8 CPU profile of a server under load: each sample is
 * given to the innermost frame of the stack that belongs to a known part of the pipeline (a hook,
 * the logger, the metrics, Fastify's routing and reply …); a sample entirely inside Node.js's own
 * code is the HTTP server's (parser, sockets, streams), and the socket writes themselves (the
 * kernel's send on loopback) are counted apart.
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The parts a frame's script may belong to, first match wins; undefined: look further out. */
const PARTS: [RegExp, string][] = [
  [/node_modules\/pino|fastify\/lib\/logger|\/core\/logger\.js/, 'logging'],
  [/\/core\/metrics\.js|node_modules\/prom-client/, 'metrics'],
  [/\/features\/auth\//, 'authentication'],
  [/\/core\/security-headers\.js/, 'security headers'],
  [/\/core\/base-url\.js/, 'URL base'],
  [/\/core\/config-cache\.js|\/db\/|node_modules\/kysely|node_modules\/better-sqlite3/, 'configuration check'],
  [/node_modules\/@fastify\/cookie/, 'cookies'],
  [/node_modules\/find-my-way/, 'routing'],
  [/node_modules\/fastify\/|node_modules\/avvio|node_modules\/toad-cache/, 'Fastify (hooks, reply)'],
  [/\/app\.js$/, 'request id and app hooks'],
  [/\/packages\/server\/dist\/(.+)$/, '$1'],
  [/\/bench\/pipeline\/bare\.ts/, 'handler'],
  [/\/bench\/pipeline\/profiler\.mjs/, 'profiler'],
];
const SOCKET_WRITES = new Set(['writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String', 'writeAsciiString']);

function partOf(url: string): string | undefined {
  if (!url || url.startsWith('node:')) return undefined;
  for (const [pattern, name] of PARTS) {
    const match = pattern.exec(url);
    if (match) return name.replace('$1', match[1] ?? '');
  }
  return 'other modules';
}

/** Microseconds of CPU per request by part, for a profile taken while `requests` were answered. */
export function stagesOf(file: string, requests: number): Map<string, number> {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const part = new Map<number, string>();
  const partOfNode = (id: number): string => {
    const known = part.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    let found: string;
    if (functionName === '(garbage collector)') found = 'garbage collection';
    else if (functionName === '(program)' || functionName === '(root)') found = 'V8 and native';
    else if (functionName === '(idle)') found = 'idle';
    else if (!url && SOCKET_WRITES.has(functionName)) found = 'socket writes (kernel)';
    else {
      const own = partOf(url);
      const up = parent.get(id);
      found = own ?? (up === undefined ? 'Node.js HTTP server' : partOfNode(up));
      if (found === 'V8 and native') found = 'Node.js HTTP server';
    }
    part.set(id, found);
    return found;
  };
  const micros = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const name = partOfNode(id);
    micros.set(name, (micros.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  // the profiler's own work and the time the process waited are no request's
  micros.delete('idle');
  micros.delete('profiler');
  for (const [name, total] of micros) micros.set(name, total / requests);
  return micros;
}
