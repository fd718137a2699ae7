/**
 * Password reset tokens (their hashes) in process memory. `consume` reads and deletes without
 * awaiting in between, so of concurrent calls with one hash at most one gets the token. Tokens past
 * their expiry are dropped by a sweep spread over `save` calls, so memory holds the live tokens and
 * at most as many expired ones again: an expired token and a missing one are refused alike, so
 * dropping changes no answer, only memory.
 */
import type { Clock, PasswordResetTokenStore } from '@storefront/domain';
import type { PasswordResetToken } from '@storefront/domain/adapter-kit';
import { systemClock } from '@storefront/domain/adapter-kit';
import { SweepSchedule } from './sweep-schedule.js';

export interface InMemoryPasswordResetTokenStoreOptions {
  /** What "expired" means to the sweep (the port's methods take their own `now`). Default: the system clock. */
  readonly clock?: Clock | undefined;
}

/** Saves between two sweeps, at least: a handful of expired tokens may linger, never an unbounded pile. */
const MIN_SWEEP_INTERVAL = 64;

function copy(token: PasswordResetToken): PasswordResetToken {
  return {
    tokenHash: token.tokenHash,
    customerId: token.customerId,
    createdAt: new Date(token.createdAt.getTime()),
    expiresAt: new Date(token.expiresAt.getTime()),
  };
}

const isLive = (token: PasswordResetToken, now: Date): boolean => token.expiresAt.getTime() > now.getTime();

export class InMemoryPasswordResetTokenStore implements PasswordResetTokenStore {
  private readonly tokens = new Map<string, PasswordResetToken>();
  private readonly clock: Clock;
  private readonly sweeps = new SweepSchedule(MIN_SWEEP_INTERVAL);

  constructor(options: InMemoryPasswordResetTokenStoreOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** Tokens held, expired ones not yet swept included. */
  get size(): number {
    return this.tokens.size;
  }

  async save(token: PasswordResetToken): Promise<void> {
    this.tokens.set(token.tokenHash, copy(token));
    if (this.sweeps.wrote()) this.sweep();
  }

  async find(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    const token = this.tokens.get(tokenHash);
    return token === undefined || !isLive(token, now) ? null : copy(token);
  }

  async consume(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    const token = this.tokens.get(tokenHash);
    if (token === undefined || !isLive(token, now)) return null;
    this.tokens.delete(tokenHash);
    return token;
  }

  async deleteAllOf(customerId: string): Promise<void> {
    for (const [hash, token] of this.tokens) if (token.customerId === customerId) this.tokens.delete(hash);
  }

  /** Drops the tokens that have expired by the clock. */
  sweep(): void {
    const now = this.clock.now();
    for (const [hash, token] of this.tokens) if (!isLive(token, now)) this.tokens.delete(hash);
    this.sweeps.swept(this.tokens.size);
  }
}
