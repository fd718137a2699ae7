/**
 * Slot places as placements use them (docs/decisions.md, "Slot places: pending until the order is
 * stored"): taken pending for a lease just before the insert, confirmed once stored. A lapsed place
 * is given back if its order was never stored, confirmed if it was; that look happens when a slot
 * is found full and when slots are listed, so a lost place returns within one lease, unswept.
 */
import type { Order } from '../orders/order.js';
import type { Clock } from '../shared/security.js';
import type { SlotPlaces } from './slot-places.js';

/** How long a placement may take from its place to its stored order; an order insert is bounded far below. */
export const PLACE_LEASE_MS = 60_000;

/** How an order that holds a place is found, whoever placed it. */
export interface PlacedOrders {
  findById(orderId: string): Promise<Order | null>;
}

export class SlotHolds {
  constructor(
    private readonly places: SlotPlaces,
    private readonly orders: PlacedOrders,
    private readonly clock: Clock,
  ) {}

  /** Takes a pending place for `orderId`; when the slot is full, gives back its lapsed places first. */
  async take(slot: Date, orderId: string, capacity: number): Promise<boolean> {
    if (await this.places.take(slot, orderId, capacity, this.leaseEnd())) return true;
    if ((await this.reclaim(slot, new Date(slot.getTime() + 1))) === 0) return false;
    return this.places.take(slot, orderId, capacity, this.leaseEnd());
  }

  /**
   * The order is stored: its place is held for good. Its place was given back only if the insert
   * landed more than a lease after the place was taken; then it takes one again if there is one.
   */
  async confirm(slot: Date, orderId: string, capacity: number): Promise<void> {
    if (await this.places.confirm(slot, orderId)) return;
    if (await this.places.take(slot, orderId, capacity, this.leaseEnd())) await this.places.confirm(slot, orderId);
  }

  /** Settles the lapsed places of the slots starting in [from, to); answers how many came back. */
  async reclaim(from: Date, to: Date): Promise<number> {
    const now = this.clock.now();
    let freed = 0;
    for (const { slot, orderId } of await this.places.lapsed(from, to, now)) {
      const order = await this.orders.findById(orderId);
      if (order !== null && order.status !== 'cancelled' && order.status !== 'rejected') await this.places.confirm(slot, orderId);
      else if (await this.places.evict(slot, orderId, now)) freed++;
    }
    return freed;
  }

  private leaseEnd(): Date {
    return new Date(this.clock.now().getTime() + PLACE_LEASE_MS);
  }
}
