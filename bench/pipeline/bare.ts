/** The floor of the pipeline benchmark: a bare Fastify route answering `OK`, one process, no hooks. */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ping', () => 'OK');
await app.listen({ host: '127.0.0.1', port: Number(process.argv[2]) });
process.send?.('ready');
