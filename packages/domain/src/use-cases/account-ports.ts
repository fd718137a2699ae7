import type { CustomerRepository } from '../ports/customer-repository.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import type { Clock, PasswordHasher } from '../ports/security.js';
import type { SessionStore } from '../ports/session-store.js';

/** The ports every use case about credentials reads: accounts, sessions, the hasher, limits, time. */
export interface AccountPorts {
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  readonly hasher: PasswordHasher;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
}
