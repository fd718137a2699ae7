/**
 * Who is calling, and may they: the caller is identified from the access token, the request counts
 * against the caller's quota (the customer with a valid token, else the client address, IPv6 by
 * /64), and only then is a bad token refused, so a bad token still spends quota. It runs once the
 * route is known, for every request, so the cost is the route's property; `peek` routes only look
 * at the quota (docs/decisions.md, "Status and quota reads spend no quota"). Staff and admin routes
 * are refused here, before the body is read.
 */
import type { Caller } from '@storefront/domain';
import type { Authenticate, CheckRateLimit, GetRateLimitStatus, RateLimitStatus, RateLimitSubject } from '@storefront/domain/adapter-kit';
import { DomainError, isDomainError, RateLimitedError } from '@storefront/domain';
import { requireAdmin, requireStaff, type Exchange } from './exchange.js';
import type { Route } from './route.js';

export interface AdmissionUseCases {
  readonly authenticate: Authenticate;
  /** Counts a request against the caller's quota. */
  readonly checkRateLimit: CheckRateLimit;
  /** Looks at the caller's quota without counting (peek routes). */
  readonly getRateLimitStatus: GetRateLimitStatus;
  /** The per-address limit of each peek route. */
  readonly checkPollLimit: CheckRateLimit;
}

/** What admission reads of a request and fills in. */
export interface Admitted extends Pick<Exchange, 'header' | 'client'> {
  caller: Caller | undefined;
  /** The token `caller` was authenticated from (set with it). */
  accessToken?: string | undefined;
  rateLimit: RateLimitStatus | undefined;
}

export type Admit = (exchange: Admitted, route: Route | undefined) => Promise<void>;

const BEARER = /^Bearer +([A-Za-z0-9._~+/=-]{1,4096})$/i;

export function admission(useCases: AdmissionUseCases): Admit {
  const { authenticate, checkRateLimit, getRateLimitStatus, checkPollLimit } = useCases;
  return async (exchange, route) => {
    const header = exchange.header('authorization');
    let authError: unknown;
    // Anonymous (no header, or an empty one): nothing to wait for.
    if (header !== undefined && header !== '') {
      try {
        const token = bearerToken(header);
        if (token === undefined) throw new DomainError('invalid_token', 'Send the access token as "Authorization: Bearer <token>".');
        exchange.caller = await authenticate.execute(token);
        exchange.accessToken = token;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        authError = error;
      }
    }
    const subject: RateLimitSubject =
      exchange.caller !== undefined ? { scope: 'customer', id: exchange.caller.customer.customerId } : { scope: 'ip', id: exchange.client };
    if (route?.quota === 'peek') {
      exchange.rateLimit = await getRateLimitStatus.execute(subject);
      await countPoll(checkPollLimit, exchange.client, route.path);
    } else {
      // A refusal throws RateLimitedError, which carries the status for the headers.
      exchange.rateLimit = await checkRateLimit.execute(subject);
    }
    if (authError !== undefined) throw authError;
    if (route?.access === 'staff') requireStaff(exchange);
    else if (route?.access === 'admin') requireAdmin(exchange);
  };
}

/**
 * The token of an `Authorization: Bearer <token>` header, the one place a token is read from (never
 * from a URL); undefined when the header holds none.
 */
function bearerToken(header: string): string | undefined {
  return BEARER.exec(header.trim())?.[1];
}

/**
 * Counts a peek request against its route's own limit, per client address even with a token (a
 * health checker and a client behind one address have separate quotas per route, not per
 * customer). The refusal is a plain `rate_limited` error, not a RateLimitedError: the headers
 * describe the caller's quota, which this refusal did not touch.
 */
async function countPoll(check: CheckRateLimit, client: string, path: string): Promise<void> {
  try {
    await check.execute({ scope: 'ip', id: client, resource: path });
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    throw new DomainError('rate_limited', `Too many requests to ${path}; retry later.`, { retryAfterSeconds: error.status.retryAfter });
  }
}
