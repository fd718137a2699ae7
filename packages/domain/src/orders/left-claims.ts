/**
 * The Idempotency-Key claims this instance's failed requests left behind: a request that ended
 * (with an error) while the store could not be told to end its claim's lock, or whose claim may
 * have been stored with its acknowledgement lost. Nothing processes those claims any more, so
 * their lock guards nothing: a retry on this instance may take one over at once, and each is ended
 * (`abandon`) or freed (`release`) as soon as the store answers again, so that a retry on any
 * instance takes it over. A claim whose request is still running is never here, and keeps its
 * lock (409 `idempotency_key_in_use`). See docs/decisions.md, "Claims left by failed requests".
 */
import type { IdempotencyKeyRef, IdempotencyKeys } from './idempotency-keys.js';
import type { Clock } from '../shared/security.js';

/** What the holder meant to do with its claim: end its lock (an outcome unknown) or free the key (nothing written). */
export type LeftClaimStep = 'abandon' | 'release';

interface LeftClaim {
  readonly ref: IdempotencyKeyRef;
  readonly owner: string;
  readonly step: LeftClaimStep;
}

/** Enough for a long outage at full load; past it the oldest are forgotten (their locks just run out). */
const MAX_LEFT = 10_000;

export class LeftClaims {
  private readonly left = new Map<string, LeftClaim>();
  private draining = false;

  constructor(
    private readonly keys: IdempotencyKeys,
    private readonly clock: Clock,
  ) {}

  add(ref: IdempotencyKeyRef, owner: string, step: LeftClaimStep): void {
    if (this.left.size >= MAX_LEFT) this.left.delete(this.left.keys().next().value!);
    this.left.set(idOf(ref, owner), { ref, owner, step });
  }

  /** True when `owner`'s claim of `ref` was left by a request of this instance that has ended. */
  has(ref: IdempotencyKeyRef, owner: string): boolean {
    return this.left.has(idOf(ref, owner));
  }

  /** The claim was taken over (or settled) by a retry. */
  settled(ref: IdempotencyKeyRef, owner: string): void {
    this.left.delete(idOf(ref, owner));
  }

  /** The store answers again: settle the claims left, one at a time in the background, until one fails. */
  storeAnswers(): void {
    if (this.draining || this.left.size === 0) return;
    this.draining = true;
    void this.drain().finally(() => (this.draining = false));
  }

  private async drain(): Promise<void> {
    for (const [id, { ref, owner, step }] of [...this.left]) {
      try {
        // Both filtered on the owner: a claim another request has taken over meanwhile is untouched.
        if (step === 'release') await this.keys.release(ref, owner);
        else await this.keys.abandon(ref, owner, this.clock.now());
      } catch {
        return; // The store is down again: the next answer resumes.
      }
      this.left.delete(id);
    }
  }
}

function idOf(ref: IdempotencyKeyRef, owner: string): string {
  return `${ref.customerId}\u0000${ref.key}\u0000${owner}`;
}
