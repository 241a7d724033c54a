/**
 * A floor of the benchmarks: a bare Fastify route (`/ping`) answering `OK`, one process, no hooks.
 * With `BENCH_ANSWER_HEADERS` (a JSON object), it answers those headers too, a fresh
 * `x-request-id` each time when one is named: what an answer with Arca's headers costs by itself.
 * With `BENCH_ANSWER_BYTES`, it answers that many bytes instead of `OK` (a file read's floor).
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

const headers = JSON.parse(process.env.BENCH_ANSWER_HEADERS ?? '{}') as Record<string, string>;
const requestId = 'x-request-id' in headers;
delete headers['x-request-id'];
const bytes = process.env.BENCH_ANSWER_BYTES;
const body = bytes ? Buffer.alloc(Number(bytes), 7) : 'OK';
const app = Fastify({ logger: false });
// what a proxy in front asks before it takes the process for up
app.get('/livez', () => 'OK');
if (bytes) app.get('/ping', () => body);
else if (Object.keys(headers).length || requestId)
  app.get('/ping', (_request, reply) => {
    reply.headers(headers);
    if (requestId) reply.header('x-request-id', randomUUID());
    return 'OK';
  });
else app.get('/ping', () => 'OK');
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.send?.('ready');
