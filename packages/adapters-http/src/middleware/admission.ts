/**
 * Who is calling, and may they: the caller is identified from the access token (authenticate.ts),
 * the request counts against the caller's quota (the customer with a valid token, else the client
 * address, IPv6 by /64), and only then is a bad token refused. Refused requests are not counted.
 * The order matters: the rate limit needs to know the caller, and a bad token still spends quota
 * before it is refused.
 *
 * The router runs this once it has matched the route (router.ts), so the cost of a request is the
 * route's property, whatever spelling of its path the client used. A `peek` route (status and quota
 * reads) spends nothing of the caller's quota, only looks at it for the headers every answer
 * carries, and counts against a generous per-address limit of its own instead, so that polling it
 * cannot be used to hammer the store.
 */
import type { Authenticate, CheckRateLimit, GetRateLimitStatus, RateLimitSubject } from '@storefront/domain';
import { DomainError, RateLimitedError } from '@storefront/domain';
import type { Context } from 'koa';
import { clientLimitKey } from '../client-address.js';
import type { Admit, Endpoint } from '../router.js';
import { stateOf } from '../state.js';
import { identifyCaller } from './authenticate.js';
import { setRateLimitHeaders } from './rate-limit.js';

export interface AdmissionUseCases {
  readonly authenticate: Authenticate;
  /** Counts a request against the caller's quota. */
  readonly checkRateLimit: CheckRateLimit;
  /** Looks at the caller's quota without counting (peek routes). */
  readonly getRateLimitStatus: GetRateLimitStatus;
  /** The per-address limit of each peek route. */
  readonly checkPollLimit: CheckRateLimit;
}

export function admission(useCases: AdmissionUseCases): Admit {
  const { authenticate, checkRateLimit, getRateLimitStatus } = useCases;
  const policy = checkRateLimit.policy;
  const policyHeader = `"${policy.name}";q=${policy.limit};w=${policy.windowSeconds}`;
  return async (ctx, endpoint) => {
    const state = stateOf(ctx);
    const header = ctx.req.headers.authorization;
    // Anonymous (no header, or an empty one): nothing to wait for.
    if (header !== undefined && header !== '') await identifyCaller(state, header, authenticate);
    const subject: RateLimitSubject =
      state.caller !== undefined ? { scope: 'customer', id: state.caller.customer.customerId } : { scope: 'ip', id: clientLimitKey(ctx) };
    state.reply.set('RateLimit-Policy', policyHeader);
    if (endpoint?.quota === 'peek') {
      state.rateLimit = await getRateLimitStatus.execute(subject);
      setRateLimitHeaders(state.reply, state.rateLimit);
      await checkPollLimit(useCases.checkPollLimit, ctx, endpoint, subject);
    } else {
      // A refusal throws RateLimitedError; the error handler sets the headers from its status.
      state.rateLimit = await checkRateLimit.execute(subject);
      setRateLimitHeaders(state.reply, state.rateLimit);
    }
    if (state.authError !== undefined) throw state.authError;
  };
}

/**
 * Counts a peek request against its route's own limit, per client address even with a token (a
 * health checker and a client behind one address have separate quotas per route, not per
 * customer). The refusal is a plain `rate_limited` error, not a RateLimitedError: the headers
 * already sent describe the caller's quota, which this refusal did not touch.
 */
async function checkPollLimit(check: CheckRateLimit, ctx: Context, endpoint: Endpoint, subject: RateLimitSubject): Promise<void> {
  const id = subject.scope === 'ip' ? subject.id : clientLimitKey(ctx);
  try {
    await check.execute({ scope: 'ip', id, resource: endpoint.path });
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    throw new DomainError('rate_limited', `Too many requests to ${endpoint.path}; retry later.`, { retryAfterSeconds: error.status.retryAfter });
  }
}
