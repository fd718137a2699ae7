/**
 * A request still running after `ms` is answered so that the client is not left hanging: 408 when
 * the client has not finished sending its body (its fault), else 503 (ours). The operation itself
 * is not cancelled: an order may still complete, which is why orders take an
 * Idempotency-Key and a retry replays instead of doubling.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';

export function timeout(ms: number): Middleware {
  // One promise and one timer per request, settled by whichever comes first.
  return (ctx, next) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(ctx.req.complete ? tooLong() : tooSlow()), ms);
      next().then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}

function tooSlow(): HttpProblem {
  return new HttpProblem(408, 'request_timeout', 'The request body did not arrive in time.');
}

function tooLong(): HttpProblem {
  return new HttpProblem(503, 'service_unavailable', 'The request took too long; retry later.', undefined, { 'Retry-After': '1' });
}
