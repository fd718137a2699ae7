/**
 * The baseline and its peers, each answering every request with the body and content type it is
 * given (those of the service's GET /api/products). Forked by bench/run.mjs, same as the service, so
 * all are measured the same way. BASELINE_KIND:
 *
 *   node     a bare node:http server: the ceiling every ratio is taken against (default)
 *   koa      a bare Koa app, one middleware setting the type and the body: what Koa costs on its own
 *   fastify  a minimal Fastify app, one route: the peer the issue names (0.86 of node:http there)
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';

const body = readFileSync(process.env.BASELINE_BODY_FILE);
const contentType = process.env.BASELINE_CONTENT_TYPE;
const kind = process.env.BASELINE_KIND ?? 'node';

let server;
if (kind === 'node') {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
    res.end(body);
  });
} else if (kind === 'koa') {
  // The Koa the service runs on (a dependency of the HTTP adapter, not of the workspace root).
  const Koa = createRequire(new URL('../packages/adapters-http/package.json', import.meta.url))('koa');
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = contentType;
    ctx.body = body;
  });
  server = http.createServer(app.callback());
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/api/products', (_request, reply) => reply.type(contentType).send(body));
  await app.ready();
  server = app.server;
} else {
  throw new Error(`BASELINE_KIND: node, koa or fastify, not ${kind}`);
}
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` });
});
process.on('message', (message) => {
  if (message.cmd === 'stop') server.close(() => process.exit(0));
  if (message.cmd === 'cpu') process.send({ id: message.id, ok: true, result: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
