/**
 * The Idempotency-Key claims this instance's failed requests left behind (the store could not be
 * told to end the claim, or its acknowledgement was lost). Nothing processes them, so their lock
 * guards nothing: a retry here takes one over at once, and each is ended or freed once the store
 * answers. A claim whose request still runs is never here (docs/decisions.md, "Claims left by
 * failed requests").
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
