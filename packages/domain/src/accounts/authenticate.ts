import { DomainError } from '../shared/errors.js';
import type { Customer } from './customer.js';
import type { CustomerRepository } from './customer-repository.js';
import type { AccessClaims, TokenService } from '../shared/security.js';
import type { SessionStore } from './session-store.js';
import type { CallerCache } from './caller-cache.js';

/** Who is calling: the customer of a live access token, and the token's claims. */
export interface Caller {
  readonly customer: Customer;
  readonly claims: AccessClaims;
}

export interface AuthenticateDependencies {
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  readonly tokens: TokenService;
  /** The session and customer from a short-lived cache (a shared database); absent: read each time. */
  readonly callers?: CallerCache;
}

/**
 * An access token → the caller. The signature and expiry are not enough: the session must still
 * be live (logout and reuse detection revoke it) and the account enabled.
 */
export class Authenticate {
  constructor(private readonly deps: AuthenticateDependencies) {}

  async execute(accessToken: string): Promise<Caller> {
    const claims = await this.deps.tokens.verify(accessToken);
    const [session, customer] =
      this.deps.callers === undefined
        ? await Promise.all([this.deps.sessions.findById(claims.sid), this.deps.customers.findById(claims.sub)])
        : await this.deps.callers.lookup(claims.sid, claims.sub);
    if (session === null || session.customerId !== claims.sub || session.revokedAt !== null || customer === null) {
      throw new DomainError('invalid_token', 'The access token has been revoked.');
    }
    if (customer.disabled) throw new DomainError('account_disabled', 'This account is disabled.');
    return { customer, claims };
  }
}
