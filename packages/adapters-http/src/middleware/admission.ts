/**
 * Who is calling, and may they: the caller is identified from the access token (authenticate.ts),
 * the request counts against the caller's quota (the customer with a valid token, else the client
 * address), and only then is a bad token refused. GET /api/rate-limit only looks at the quota.
 * Refused requests are not counted. The order matters: the rate limit needs to know the caller,
 * and a bad token still spends quota before it is refused.
 */
import type { Authenticate, CheckRateLimit, GetRateLimitStatus, RateLimitSubject } from '@storefront/domain';
import type { Middleware } from 'koa';
import { clientAddress, stateOf } from '../state.js';
import { identifyCaller } from './authenticate.js';
import { RATE_LIMIT_STATUS_PATH, setRateLimitHeaders } from './rate-limit.js';

export function admission(authenticate: Authenticate, check: CheckRateLimit, status: GetRateLimitStatus): Middleware {
  const policyHeader = `"${check.policy.name}";q=${check.policy.limit};w=${check.policy.windowSeconds}`;
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const header = ctx.req.headers.authorization;
    // Anonymous (no header, or an empty one): nothing to wait for.
    if (header !== undefined && header !== '') await identifyCaller(state, header, authenticate);
    const subject: RateLimitSubject =
      state.caller !== undefined ? { scope: 'customer', id: state.caller.customer.customerId } : { scope: 'ip', id: clientAddress(ctx) };
    state.reply.set('RateLimit-Policy', policyHeader);
    const peekOnly = ctx.path === RATE_LIMIT_STATUS_PATH && (ctx.method === 'GET' || ctx.method === 'HEAD');
    // A refusal throws RateLimitedError; the error handler sets the headers from its status.
    state.rateLimit = peekOnly ? await status.execute(subject) : await check.execute(subject);
    setRateLimitHeaders(state.reply, state.rateLimit);
    if (state.authError !== undefined) throw state.authError;
    // Awaited, not returned: an async function that returns a promise takes two more microtask
    // turns to adopt it.
    await next();
  };
}
