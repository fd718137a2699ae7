/**
 * A handler still running after `ms` is answered 503 so that the client is not left hanging. The
 * operation itself is not cancelled: an order may still complete, which is why orders take an
 * Idempotency-Key and a retry replays instead of doubling.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';

export function timeout(ms: number): Middleware {
  // One promise and one timer per request, settled by whichever comes first.
  return (_ctx, next) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(tooLong()), ms);
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

function tooLong(): HttpProblem {
  return new HttpProblem(503, 'service_unavailable', 'The request took too long; retry later.', undefined, { 'Retry-After': '1' });
}
