/**
 * The payment provider's events we have taken in (Stripe's `evt_…` ids): the record that makes each
 * event id take effect once, whatever the provider repeats, and whichever instance receives it.
 *
 * The webhook route claims an id before applying it and completes it after. A claim is a lease:
 * an applier that dies midway leaves a claim that any instance may take again once the lease has
 * passed; one that fails and knows it releases its claim, so the provider's retry applies it at
 * once. Applying stays idempotent (order moves are checked against the order's version) because a
 * stalled applier may outlive its lease; the claim keeps that rare, not impossible. Reasoning:
 * docs/decisions.md, "Issue 35 item 5: processed provider events".
 */

/** How long a claim keeps an event id from other appliers before it may be taken again. */
export const PROVIDER_EVENT_LEASE_MS = 60_000;

export interface ProviderEvents {
  /**
   * Takes the event id for applying: true the first time it is seen, and for an unfinished claim
   * whose lease (PROVIDER_EVENT_LEASE_MS from its claim) has passed by `receivedAt`; false for a
   * completed id or one claimed within its lease. Of concurrent claims, exactly one is true.
   */
  claim(provider: string, eventId: string, receivedAt: Date): Promise<boolean>;
  /** The event has taken effect: from now on every claim of it is false. */
  complete(provider: string, eventId: string, completedAt: Date): Promise<void>;
  /** Gives up an unfinished claim (applying failed): the next claim is true. A completed id stays. */
  release(provider: string, eventId: string): Promise<void>;
  /** Whether the event has taken effect (a false claim of an unfinished one means "try again later"). */
  isCompleted(provider: string, eventId: string): Promise<boolean>;
  /**
   * Forgets at most `limit` events completed before `before`, oldest first; unfinished claims stay.
   * Resolves with how many went.
   */
  removeBefore(before: Date, limit: number): Promise<number>;
}
