/**
 * What every request gets, whatever happens inside: `X-Request-Id`, `nosniff` and the caller's
 * rate-limit headers on every answer; a time allowance (408 if the client is still sending, else
 * 503; the operation is not cancelled, which is why orders take an Idempotency-Key); errors turned
 * into replies (errors.ts), the reply written once (write-reply.ts), then one access-log line. A
 * streamed reply that is never sent is cancelled so that its source releases what it holds. Nothing
 * here knows Koa: koa-app.ts hands each request over as an InFlight (docs/decisions.md, "HTTP").
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimitStatus } from '@storefront/domain/adapter-kit';
import type { AccessLog, HttpLogger, HttpObserver } from './app-types.js';
import { Deadlines, type Pending } from './deadlines.js';
import { errorReply, internalErrorBody } from './errors.js';
import type { Exchange } from './exchange.js';
import { HttpProblem } from './problem.js';
import { JSON_TYPE, type Reply } from './reply.js';
import { retryAdviceFor, type Route } from './route.js';
import type { OpenStreams } from './sse/streamed-replies.js';
import { writeReply } from './write-reply.js';

/** One request as the lifecycle follows it. */
export interface InFlight extends Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly startedAt: number;
  /** The route that matched; undefined for a 404, 405 or OPTIONS. */
  readonly route: Route | undefined;
  rateLimit: RateLimitStatus | undefined;
  /** Fires the exchange's signal: the request was answered early. */
  abort(): void;
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._:\-]{1,128}$/;

export class Lifecycle {
  private readonly deadlines: Deadlines<InFlight>;
  private readonly prefix = `${randomBytes(8).toString('hex')}-`;
  private counter = 0;

  constructor(
    private readonly logger: HttpLogger,
    private readonly accessLog: AccessLog,
    allowanceMs: number,
    private readonly streams: OpenStreams,
    /** `RateLimit-Policy`, the same on every answer. */
    private readonly policy: string,
    /** Told of each answer where it is logged, and of each unexpected failure (metrics). */
    private readonly observer: HttpObserver | undefined = undefined,
  ) {
    this.deadlines = new Deadlines<InFlight>(allowanceMs, (run) => {
      run.abort();
      const advice = retryAdviceFor(run.route, run);
      this.answer(run, errorReply(run.req.complete ? tooLong(advice) : tooSlow(), advice).reply);
    });
  }

  /**
   * Generated request ids: 64 random bits drawn once per process, then a counter, e.g.
   * `6f1c0a9d3b2e4f71-1a2b`. As unique as a log needs across processes and restarts, and an order
   * of magnitude cheaper than a random UUID per request.
   */
  requestId(incoming: string | string[] | undefined): string {
    return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : this.prefix + (++this.counter).toString(36);
  }

  start(run: InFlight): Pending {
    return this.deadlines.start(run);
  }

  /** Answers `run` with `reply`, or with the reply of `error`; nothing when the allowance answered first. */
  settle(run: InFlight, pending: Pending, reply: Reply | undefined, error?: unknown): void {
    if (!this.deadlines.finish(pending)) {
      // Answered by the allowance already: a stream the handler prepared will never be sent.
      if (reply?.body.kind === 'stream') reply.body.source.cancel?.();
      return;
    }
    if (reply === undefined) {
      const outcome = errorReply(error, retryAdviceFor(run.route, run));
      if (outcome.rateLimit !== undefined) run.rateLimit = outcome.rateLimit;
      if (outcome.unexpected) {
        this.logger.error({ req_id: run.requestId, method: run.method, path: run.path, err: error }, 'request failed');
        this.observer?.failure?.(error);
      }
      reply = outcome.reply;
    }
    this.answer(run, reply);
  }

  private answer(run: InFlight, reply: Reply): void {
    const headers = this.commonHeaders(run);
    // Refused before the whole body arrived (a bad Content-Encoding, a body over the limit): its
    // unread rest stays in the connection, and a keep-alive client's next request would wait behind
    // it until the server's request time-out. Close the connection instead of reading the rest.
    if (!run.req.complete) headers.push('Connection', 'close');
    let status = reply.status;
    try {
      writeReply(run.res, reply, headers, run.method === 'HEAD');
    } catch (error) {
      // Only a header value the code itself got wrong can fail here (Node checks them): answer a
      // plain 500 and log it, never crash.
      this.logger.error({ req_id: run.requestId, method: run.method, path: run.path, err: error }, 'response could not be written');
      status = 500;
      if (!run.res.headersSent) {
        run.res.writeHead(500, ['X-Request-Id', run.requestId, 'Content-Type', JSON_TYPE]).end(JSON.stringify(internalErrorBody(retryAdviceFor(run.route, run))));
      }
    }
    if (reply.body.kind === 'stream') {
      // A stream is started only when its headers went out, and never for a HEAD.
      if (status !== reply.status || run.method === 'HEAD') {
        reply.body.source.cancel?.();
        this.log(run, status);
        return;
      }
      try {
        this.streams.start(run.res, reply.body.source, (reason) => {
          if (reason === 'slow_client') this.logger.info({ req_id: run.requestId, path: run.path }, 'event stream cut: its client reads too slowly (it resumes with Last-Event-ID)');
          this.log(run, status);
        });
      } catch (error) {
        // The headers are out: the stream was ended (and logged); only the log can hear why.
        this.logger.error({ req_id: run.requestId, method: run.method, path: run.path, err: error }, 'stream failed to open');
      }
      return;
    }
    this.log(run, status);
  }

  private commonHeaders(run: InFlight): string[] {
    const headers = ['X-Request-Id', run.requestId, 'X-Content-Type-Options', 'nosniff', 'RateLimit-Policy', this.policy];
    const limit = run.rateLimit;
    if (limit !== undefined) {
      headers.push(
        'RateLimit',
        `"default";r=${limit.remaining};t=${limit.reset}`,
        'X-RateLimit-Limit',
        String(limit.limit),
        'X-RateLimit-Remaining',
        String(limit.remaining),
        'X-RateLimit-Reset',
        String(Math.ceil(Date.now() / 1000) + limit.reset),
      );
    }
    return headers;
  }

  private log(run: InFlight, status: number): void {
    const elapsedMs = performance.now() - run.startedAt;
    this.accessLog({
      requestId: run.requestId,
      method: run.method,
      path: run.path,
      status,
      ms: Math.round(elapsedMs * 10) / 10,
    });
    // The route's template, never the path: a label per order id would grow without bound.
    this.observer?.request({ route: run.route?.path, method: run.method, status, durationMs: elapsedMs });
  }
}

function tooSlow(): HttpProblem {
  return new HttpProblem('request_timeout', 'The request body did not arrive in time.');
}

/** Ours: the operation may still complete, so the answer says what a retry does (the route's advice). */
function tooLong(retryAdvice: string): HttpProblem {
  return new HttpProblem('service_unavailable', `The request took too long. ${retryAdvice}`, undefined, { 'Retry-After': '1' });
}
