/**
 * The outermost middleware: what every request gets, whatever happens inside.
 *
 * - `X-Request-Id`: a sane incoming id is echoed, anything else replaced; and `nosniff`.
 * - A time allowance: a request still running after it is answered so that the client is not left
 *   hanging: 408 when the client has not finished sending its body (its fault), else 503 (ours).
 *   The operation itself is not cancelled: an order may still complete, which is why orders take
 *   an Idempotency-Key and a retry replays instead of doubling. Only work that has not started and
 *   listens to the request's signal (request-signal.ts: a login's password hash) is dropped.
 * - Errors become replies (errors.ts), an unrouted path a 404.
 * - The reply is written once (reply.ts), then one access-log line.
 *
 * One middleware rather than four: each layer of koa-compose costs a bound function and a promise
 * per request, and these steps always run together and in this order.
 */
import { randomBytes } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import type { AccessLog, HttpLogger } from '../app.js';
import { Deadlines } from '../deadlines.js';
import { HttpProblem } from '../problem.js';
import { JSON_TYPE, Reply, writeReply } from '../reply.js';
import { stateOf } from '../state.js';
import { internalErrorBody, notFound, replyWithError } from './errors.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

/**
 * Generated request ids: 64 random bits drawn once per process, then a counter, e.g.
 * `6f1c0a9d3b2e4f71-1a2b`. As unique as a log needs across processes and restarts, and an order of
 * magnitude cheaper than a random UUID per request (no random bytes to draw or format).
 */
function requestIds(): () => string {
  const prefix = `${randomBytes(8).toString('hex')}-`;
  let counter = 0;
  return () => prefix + (++counter).toString(36);
}

export function lifecycle(logger: HttpLogger, accessLog: AccessLog, allowanceMs: number): Middleware {
  const finish = (ctx: Context): void => {
    const { reply, requestId, startedAt } = stateOf(ctx);
    try {
      writeReply(ctx, reply);
    } catch (error) {
      // Only a header value the code itself got wrong can fail here (Node checks them): answer a
      // plain 500 and log it, never crash.
      logger.error({ req_id: requestId, method: ctx.method, path: ctx.path, err: error }, 'response could not be written');
      reply.status = 500;
      if (!ctx.res.headersSent) ctx.res.writeHead(500, ['X-Request-Id', requestId, 'Content-Type', JSON_TYPE]).end(JSON.stringify(internalErrorBody(ctx)));
    }
    accessLog({
      requestId,
      method: ctx.method,
      path: ctx.path,
      status: reply.status ?? 500,
      ms: Math.round((performance.now() - startedAt) * 10) / 10,
    });
  };

  const nextRequestId = requestIds();
  const deadlines = new Deadlines<Context>(allowanceMs, (ctx) => {
    replyWithError(ctx, stateOf(ctx).reply, ctx.req.complete ? tooLong() : tooSlow(), logger);
    finish(ctx);
    // Answered: work the handler has not started yet is not worth starting (request-signal.ts).
    stateOf(ctx).abort?.abort();
  });

  return async (ctx, next) => {
    const startedAt = performance.now();
    const incoming = ctx.req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : nextRequestId();
    const reply = new Reply();
    reply.headers.push('X-Request-Id', requestId, 'X-Content-Type-Options', 'nosniff');
    const state = stateOf(ctx);
    state.requestId = requestId;
    state.reply = reply;
    state.startedAt = startedAt;
    const pending = deadlines.start(ctx);
    try {
      await next();
      if (reply.status === undefined) throw notFound();
    } catch (error) {
      replyWithError(ctx, reply, error, logger);
    }
    // Already answered by the deadline: what the handler did since is not sent.
    if (deadlines.finish(pending)) finish(ctx);
  };
}

function tooSlow(): HttpProblem {
  return new HttpProblem(408, 'request_timeout', 'The request body did not arrive in time.');
}

function tooLong(): HttpProblem {
  return new HttpProblem(503, 'service_unavailable', 'The request took too long; retry later.', undefined, { 'Retry-After': '1' });
}
