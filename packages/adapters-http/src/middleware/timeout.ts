/**
 * A handler still running after `ms` is answered 503 so that the client is not left hanging. The
 * operation itself is not cancelled: an order may still complete, which is why orders take an
 * Idempotency-Key and a retry replays instead of doubling.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';

export function timeout(ms: number): Middleware {
  return async (ctx, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HttpProblem(503, 'service_unavailable', 'The request took too long; retry later.', undefined, { 'Retry-After': '1' })),
        ms,
      );
    });
    try {
      await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
