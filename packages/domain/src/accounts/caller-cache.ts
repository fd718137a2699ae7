/**
 * The session and customer behind an access token, kept per instance for `ttlMs` (1 s by default),
 * so an authenticated request on a shared database costs no round trip. DECISIONS "Authentication
 * and sessions": a revocation is refused at once here and within 2 s elsewhere, so every revoking
 * write of this instance goes through `watchSessions`/`watchCustomers`/`watchErasures` and clears
 * what it touches.
 */
import type { Clock } from '../shared/security.js';
import type { Customer } from './customer.js';
import type { CustomerRepository } from './customer-repository.js';
import type { PendingErasures } from './pending-erasures.js';
import type { Session } from './session.js';
import type { SessionStore } from './session-store.js';

export interface CallerCacheOptions {
  /** How long an entry serves; 0 turns the cache off. Default 1,000 ms. */
  readonly ttlMs?: number;
  /** Entries kept at most (the oldest go first). Default 10,000. */
  readonly maxEntries?: number;
}

interface Entry {
  readonly session: Session | null;
  readonly customer: Customer | null;
  readonly at: number;
}

export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every revoking write: a read begun before one is not kept. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly sessions: SessionStore,
    private readonly customers: CustomerRepository,
    private readonly clock: Clock,
    options: CallerCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** The session `sessionId` and the customer `customerId`, from the cache while fresh. */
  async lookup(sessionId: string, customerId: string): Promise<readonly [Session | null, Customer | null]> {
    const now = this.clock.now().getTime();
    const key = `${sessionId} ${customerId}`;
    const kept = this.entries.get(key);
    if (kept !== undefined && now - kept.at < this.ttlMs && now >= kept.at) return [kept.session, kept.customer];
    const generation = this.generation;
    const [session, customer] = await Promise.all([this.sessions.findById(sessionId), this.customers.findById(customerId)]);
    if (this.ttlMs > 0 && generation === this.generation) {
      this.entries.delete(key);
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(key, { session, customer, at: now });
    }
    return [session, customer];
  }

  /** Forgets every entry: a write of this instance that may revoke a caller. */
  forget(): void {
    this.generation++;
    this.entries.clear();
  }

  /** `store`, forgetting the cache on each write that can end a session's access. */
  watchSessions(store: SessionStore): SessionStore {
    return {
      create: (session) => store.create(session),
      findById: (sessionId) => store.findById(sessionId),
      rotate: (sessionId, expected, next, expiresAt) => store.rotate(sessionId, expected, next, expiresAt),
      revoke: (sessionId, at) => this.forgetting(store.revoke(sessionId, at)),
      revokeAllOf: (customerId, at) => this.forgetting(store.revokeAllOf(customerId, at)),
    };
  }

  /** `store`, forgetting the cache on each write to an account (disable, role, password, erasure). */
  watchCustomers(store: CustomerRepository): CustomerRepository {
    return {
      findByEmail: (email) => store.findByEmail(email),
      findById: (customerId) => store.findById(customerId),
      create: (customer) => store.create(customer),
      setDisabled: (email, disabled) => this.forgetting(store.setDisabled(email, disabled)),
      setRole: (email, role) => this.forgetting(store.setRole(email, role)),
      updatePasswordHash: (customerId, expected, replacement) => this.forgetting(store.updatePasswordHash(customerId, expected, replacement)),
      delete: (customerId) => this.forgetting(store.delete(customerId)),
    };
  }

  /** `store`, forgetting the cache when an account is marked for erasure (it reads as gone from then). */
  watchErasures(store: PendingErasures): PendingErasures {
    return {
      mark: (customerId, at) => this.forgetting(store.mark(customerId, at)),
      list: (limit) => store.list(limit),
    };
  }

  /** Forgets before the write (no read begun after it is kept) and after it (nor one begun during it). */
  private async forgetting<T>(write: Promise<T>): Promise<T> {
    this.forget();
    try {
      return await write;
    } finally {
      this.forget();
    }
  }
}
