/**
 * The times one lease of a database store works with. A store that keys its scan by a `ready` time
 * moves a delivery held back by an earlier version of its order out of the scan's way, so that the
 * thousands behind an endpoint that is down are not read at every lease: by HELD_BACK_RECHECK_MS
 * when the earlier version waits for a later retry, and only by HELD_BACK_SOON_MS when it is due or
 * in flight, since its record may be racing this lease and would otherwise delay the order's next
 * events.
 */
import type { LeaseRequest } from '@storefront/domain/adapter-kit';

export const HELD_BACK_RECHECK_MS = 5 * 60_000;
export const HELD_BACK_SOON_MS = 2_000;
/**
 * What one lease reads at most: a window of what it still wants, then, while a window was full of
 * deliveries it could not lease (held back, now moved on), windows of that many more, at most
 * LEASE_MAX_WINDOWS of them.
 */
export const LEASE_HELD_SCAN = 200;
export const LEASE_MAX_WINDOWS = 1_000;

export interface LeaseWindow {
  /** Deliveries to hand out at most (a whole number ≥ 1). */
  readonly limit: number;
  readonly leaseUntil: Date;
  /** Where a held-back delivery goes when its earlier version waits for a later retry. */
  readonly recheckAt: Date;
  /** Where it goes when its earlier version is due or in flight. */
  readonly recheckSoonAt: Date;
}

/** The window of `request`; null when it can hand out nothing (no endpoint, a limit below 1). */
export function leaseWindow(request: LeaseRequest): LeaseWindow | null {
  const limit = Math.floor(request.limit);
  if (!(limit >= 1) || request.webhookIds.length === 0) return null;
  const now = request.now.getTime();
  return {
    limit,
    leaseUntil: new Date(now + Math.max(1, request.leaseMs)),
    recheckAt: new Date(now + HELD_BACK_RECHECK_MS),
    recheckSoonAt: new Date(now + HELD_BACK_SOON_MS),
  };
}
