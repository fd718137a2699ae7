/**
 * Every request counts against its caller's quota (the customer with a valid token, else the client
 * address), except GET /api/rate-limit, which only looks. Refused requests are not counted. The
 * quota headers of DECISIONS go on every response, errors included.
 */
import type { CheckRateLimit, GetRateLimitStatus, RateLimitStatus, RateLimitSubject } from '@storefront/domain';
import type { Context, Middleware } from 'koa';
import { setHeader } from '../headers.js';
import { stateOf } from '../state.js';

export const RATE_LIMIT_STATUS_PATH = '/api/rate-limit';

export function rateLimit(check: CheckRateLimit, status: GetRateLimitStatus): Middleware {
  const policyHeader = `"${check.policy.name}";q=${check.policy.limit};w=${check.policy.windowSeconds}`;
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const subject: RateLimitSubject =
      state.caller !== undefined ? { scope: 'customer', id: state.caller.customer.customerId } : { scope: 'ip', id: ctx.ip };
    setHeader(ctx, 'RateLimit-Policy', policyHeader);
    const peekOnly = ctx.path === RATE_LIMIT_STATUS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD');
    // A refusal throws RateLimitedError; the error handler sets the headers from its status.
    state.rateLimit = peekOnly ? await status.execute(subject) : await check.execute(subject);
    setRateLimitHeaders(ctx, state.rateLimit);
    await next();
  };
}

export function setRateLimitHeaders(ctx: Context, status: RateLimitStatus): void {
  setHeader(ctx, 'RateLimit', `"default";r=${status.remaining};t=${status.reset}`);
  setHeader(ctx, 'X-RateLimit-Limit', String(status.limit));
  setHeader(ctx, 'X-RateLimit-Remaining', String(status.remaining));
  setHeader(ctx, 'X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + status.reset));
}
