import type { CustomerRepository } from './customer-repository.js';
import type { RateLimiter } from '../rate-limits/rate-limiter.js';
import type { Clock, PasswordHasher } from '../shared/security.js';
import type { SessionStore } from './session-store.js';

/** The ports every use case about credentials reads: accounts, sessions, the hasher, limits, time. */
export interface AccountPorts {
  readonly customers: CustomerRepository;
  readonly sessions: SessionStore;
  readonly hasher: PasswordHasher;
  readonly limiter: RateLimiter;
  readonly clock: Clock;
}
