/**
 * The baseline and its peers, each answering every request with the body and content type it is
 * given (those of the service's GET /api/products). Forked by bench/run.mjs, same as the service, so
 * all are measured the same way. BASELINE_KIND:
 *
 *   node      a bare node:http server: the baseline every ratio is taken against (default)
 *   ceiling   node:http sending the same bytes AND the same response headers as the service (taken
 *             from one of its answers, BASELINE_HEADERS; the request id counts up): the most any
 *             server with this feature set's answer could do
 *   koa       a bare Koa app, one middleware setting the type and the body: what Koa costs on its own
 *   koa-router  the ceiling of the owner's stack: Koa + @koa/router with the service's routes
 *             (BASELINE_ROUTES: [[method, path], ...], the same count and paths), the JSON ones read by
 *             koa-body as the service reads them, each answering the Koa way (ctx.status, ctx.set,
 *             ctx.body) with the same bytes and headers as one of the service's answers on that route
 *             (BASELINE_ANSWERS_FILE: {"GET /api/products": {status, headers, body (base64)}, ...});
 *             the request id counts up. No schema check, no store: what any handler on this stack adds
 *   fastify   a minimal Fastify app, one route
 *   fastify-features  the same features as the service, written as a Fastify user would:
 *             @fastify/rate-limit (in-memory, a limit never reached), X-Request-Id (echoed when
 *             sane, else generated), ETag/304 over the pre-encoded body, nosniff, Cache-Control,
 *             Fastify's pino logger at LOG_LEVEL (its default request logging) to stdout
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
} else if (kind === 'ceiling') {
  const headers = JSON.parse(process.env.BASELINE_HEADERS);
  const at = headers.findIndex(([name]) => name.toLowerCase() === 'x-request-id');
  const flat = headers.flat();
  const prefix = `${Math.random().toString(16).slice(2, 18)}-`;
  let counter = 0;
  server = http.createServer((_req, res) => {
    if (at >= 0) flat[at * 2 + 1] = prefix + ++counter;
    res.writeHead(200, flat);
    res.end(body);
  });
} else if (kind === 'fastify-features') {
  server = await fastifyWithFeatures();
} else if (kind === 'koa') {
  // The Koa the service runs on (a dependency of the HTTP adapter, not of the workspace root).
  const Koa = createRequire(new URL('../packages/adapters-http/package.json', import.meta.url))('koa');
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = contentType;
    ctx.body = body;
  });
  server = http.createServer(app.callback());
} else if (kind === 'koa-router') {
  server = http.createServer(await koaRouterCeiling());
} else if (kind === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/api/products', (_request, reply) => reply.type(contentType).send(body));
  await app.ready();
  server = app.server;
} else {
  throw new Error(`BASELINE_KIND: node, ceiling, koa, koa-router, fastify or fastify-features, not ${kind}`);
}
server.keepAliveTimeout = 5_000;

async function koaRouterCeiling() {
  // The Koa, @koa/router and koa-body the service runs on (dependencies of the HTTP adapter).
  const require = createRequire(new URL('../packages/adapters-http/package.json', import.meta.url));
  const Koa = require('koa');
  const Router = require('@koa/router');
  const { koaBody } = require('koa-body');
  const routes = JSON.parse(process.env.BASELINE_ROUTES);
  const answers = JSON.parse(readFileSync(process.env.BASELINE_ANSWERS_FILE, 'utf8'));
  const prefix = `${Math.random().toString(16).slice(2, 18)}-`;
  let counter = 0;
  // The service's body options (koa-app.ts jsonBody).
  const readJson = koaBody({ json: true, jsonStrict: true, jsonLimit: 16 * 1024, urlencoded: false, text: false, multipart: false, parsedMethods: ['POST', 'PATCH'] });
  const app = new Koa();
  const router = new Router();
  for (const [method, path] of routes) {
    const answer = answers[`${method} ${path}`] ?? { status: 204, headers: [], body: '' };
    const bytes = Buffer.from(answer.body, 'base64');
    const headers = answer.headers.filter(([name]) => name.toLowerCase() !== 'x-request-id');
    const handlers = method === 'GET' ? [] : [readJson];
    handlers.push((ctx) => {
      if (method !== 'GET' && typeof ctx.request.body !== 'object') ctx.throw(400);
      ctx.status = answer.status;
      for (const [name, value] of headers) ctx.set(name, value);
      ctx.set('X-Request-Id', prefix + ++counter);
      ctx.body = bytes;
    });
    router.register(path, [method], handlers);
  }
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app.callback();
}

async function fastifyWithFeatures() {
  const { default: Fastify } = await import('fastify');
  const { default: rateLimit } = await import('@fastify/rate-limit');
  const { createHash } = await import('node:crypto');
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const prefix = `${Math.random().toString(16).slice(2, 18)}-`;
  let counter = 0;
  const app = Fastify({
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
    requestIdHeader: 'x-request-id',
    requestIdLogLabel: 'req_id',
    genReqId: () => prefix + ++counter,
  });
  await app.register(rateLimit, { max: 100_000_000, timeWindow: 60_000 });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  });
  app.get('/api/products', (request, reply) => {
    reply.header('etag', etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type(contentType).send(body);
  });
  await app.ready();
  return app.server;
}
server.listen(0, '127.0.0.1', () => {
  process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` });
});
process.on('message', (message) => {
  if (message.cmd === 'stop') server.close(() => process.exit(0));
  if (message.cmd === 'cpu') process.send({ id: message.id, ok: true, result: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
