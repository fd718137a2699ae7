/**
 * Optional port: a store that can write a fresh Idempotency-Key's claim, its order (and so the
 * order's outbox entry) and the claim's completion as one atomic write, one round trip instead of
 * three. PlaceOrder uses it for the common case only (a key nobody holds); everything else (a
 * replay, a key in flight, a held claim taken over) goes through IdempotencyKeys step by step.
 */
import type { IdempotencyClaim } from './idempotency-keys.js';
import type { Order } from './order.js';

export interface KeyedOrderWrites {
  /**
   * Atomically: claims the key as `IdempotencyKeys.claim` would (a live record wins), and only
   * then stores `order` (its id is `claim.orderId`) with the key's record completed. `placed`:
   * all of it is written; `held`: a live record holds the key and nothing was written. A failure
   * leaves either all or nothing written.
   */
  placeFresh(claim: IdempotencyClaim, order: Order, now: Date): Promise<'placed' | 'held'>;
}
