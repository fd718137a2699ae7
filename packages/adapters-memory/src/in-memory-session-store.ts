/**
 * Login sessions in process memory. `rotate` is a compare-and-swap that runs without awaiting, so
 * of two concurrent rotations of the same token exactly one wins. Sessions past their expiry are
 * dropped by a sweep spread over `create` calls: an expired session and a missing one are refused
 * alike, so dropping changes no answer, only memory.
 */
import type { Clock, SessionStore } from '@storefront/domain';
import type { Session } from '@storefront/domain/adapter-kit';
import { systemClock } from '@storefront/domain/adapter-kit';
import { SweepSchedule } from './sweep-schedule.js';

export interface InMemorySessionStoreOptions {
  readonly clock?: Clock | undefined;
  /**
   * Rotated token hashes kept per session for reuse detection. A session refreshed every 15 min
   * for months would otherwise grow without end; a token older than this many rotations is
   * still refused, it just no longer revokes the session.
   */
  readonly maxPreviousTokenHashes?: number | undefined;
}

const MIN_SWEEP_INTERVAL = 1024;

function copy(session: Session): Session {
  return {
    sessionId: session.sessionId,
    customerId: session.customerId,
    refreshTokenHash: session.refreshTokenHash,
    previousTokenHashes: [...session.previousTokenHashes],
    createdAt: new Date(session.createdAt.getTime()),
    expiresAt: new Date(session.expiresAt.getTime()),
    revokedAt: session.revokedAt === null ? null : new Date(session.revokedAt.getTime()),
  };
}

export class InMemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly clock: Clock;
  private readonly maxPrevious: number;
  private readonly sweeps = new SweepSchedule(MIN_SWEEP_INTERVAL);

  constructor(options: InMemorySessionStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.maxPrevious = options.maxPreviousTokenHashes ?? 100;
  }

  get size(): number {
    return this.sessions.size;
  }

  async create(session: Session): Promise<void> {
    this.sessions.set(session.sessionId, copy(session));
    if (this.sweeps.wrote()) this.sweep();
  }

  async findById(sessionId: string): Promise<Session | null> {
    const session = this.sessions.get(sessionId);
    return session === undefined ? null : copy(session);
  }

  async rotate(sessionId: string, expectedHash: string, nextHash: string, expiresAt: Date): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (session === undefined || session.revokedAt !== null || session.refreshTokenHash !== expectedHash) return false;
    this.sessions.set(sessionId, {
      ...session,
      refreshTokenHash: nextHash,
      previousTokenHashes: [...session.previousTokenHashes, expectedHash].slice(-this.maxPrevious),
      expiresAt: new Date(expiresAt.getTime()),
    });
    return true;
  }

  async revoke(sessionId: string, at: Date): Promise<void> {
    const session = this.sessions.get(sessionId);
    // The first revocation time stands: revoking again changes nothing.
    if (session === undefined || session.revokedAt !== null) return;
    this.sessions.set(sessionId, { ...session, revokedAt: new Date(at.getTime()) });
  }

  async revokeAllOf(customerId: string, at: Date): Promise<void> {
    // A scan rather than a per-customer index: this runs on a password reset or an erasure, rare
    // next to logins, and one more map to keep in step with the sweep is not worth it.
    for (const [id, session] of this.sessions) {
      if (session.customerId !== customerId || session.revokedAt !== null) continue;
      this.sessions.set(id, { ...session, revokedAt: new Date(at.getTime()) });
    }
  }

  /** Drops sessions whose refresh token has expired. */
  sweep(): void {
    const nowMs = this.clock.now().getTime();
    for (const [id, session] of this.sessions) if (session.expiresAt.getTime() <= nowMs) this.sessions.delete(id);
    this.sweeps.swept(this.sessions.size);
  }
}
