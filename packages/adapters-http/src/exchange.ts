/**
 * What a handler is given: the request as the adapter has read it, and what admission learned
 * about it (the caller, its quota). Handlers take an Exchange and return a Reply (reply.ts); they
 * never see Koa, so they can be called in a test with a plain object.
 */
import { type Caller, DomainError } from '@storefront/domain';
import { isStaffRole, type RateLimitStatus } from '@storefront/domain/adapter-kit';

export interface Exchange {
  readonly method: string;
  /** The path as the client sent it, without the query string. */
  readonly path: string;
  // No path parameters, query or body here: a handler is given them checked, as its operation's
  // input (dispatch.ts, route.ts).
  /** A request header by its lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** The client, as the per-client limits key it (IPv6 by /64; see client-address.ts). */
  readonly client: string;
  readonly requestId: string;
  /** Set when a valid access token was presented. */
  readonly caller: Caller | undefined;
  /** The token admission authenticated `caller` from (a live stream authenticates it again). */
  readonly accessToken?: string | undefined;
  /** The caller's quota after this request (admission). */
  readonly rateLimit: RateLimitStatus | undefined;
  /** Fires when the request has been answered early (time allowance) or the client has gone. */
  readonly signal: AbortSignal;
}

/** The logged-in caller, or `unauthorized` for an anonymous request. */
export function requireCaller(exchange: Pick<Exchange, 'caller'>): Caller {
  const caller = exchange.caller;
  if (caller === undefined) {
    throw new DomainError('unauthorized', 'Log in first and send the access token as "Authorization: Bearer <token>".');
  }
  return caller;
}

/** A staff caller: `unauthorized` when anonymous, `forbidden` for a customer's token. */
export function requireStaff(exchange: Pick<Exchange, 'caller'>): Caller {
  const caller = requireCaller(exchange);
  if (!isStaffRole(caller.customer.role)) throw new DomainError('forbidden', 'This endpoint is for staff accounts only.');
  return caller;
}

/** An admin caller (`/api/admin/*`): `unauthorized` when anonymous, `forbidden` for a customer's or staff token. */
export function requireAdmin(exchange: Pick<Exchange, 'caller'>): Caller {
  const caller = requireCaller(exchange);
  if (caller.customer.role !== 'admin') throw new DomainError('forbidden', 'This endpoint is for admin accounts only.');
  return caller;
}
