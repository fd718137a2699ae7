/**
 * Turns what the router leaves unanswered into JSON problems: 405 with `Allow` for a known path and
 * another method, 204 for OPTIONS, 404 for anything else (the error handler's default).
 */
import type { Middleware } from 'koa';
import { HttpProblem } from '../problem.js';

export function unmatchedRoutes(): Middleware {
  return async (ctx, next) => {
    await next();
    const allow = ctx.response.get('Allow');
    if (ctx.method === 'OPTIONS' && ctx.status === 200 && allow !== '' && !ctx.body) {
      ctx.status = 204;
      return;
    }
    if (ctx.body !== undefined && ctx.body !== null) return;
    if ((ctx.status === 405 || ctx.status === 501) && allow !== '') {
      throw new HttpProblem(405, 'method_not_allowed', `${ctx.method} is not allowed here; use ${allow}.`, undefined, { Allow: allow });
    }
  };
}
