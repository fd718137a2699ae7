/**
 * Places taken per slot, in process memory: per slot start, the order ids holding a place, each
 * with its lease (null once confirmed). Each call runs to completion without awaiting, which makes
 * "take a place if one is left" atomic here; with several processes, places must live in a shared
 * store (MongoDB, PostgreSQL).
 */
import type { SlotPlaces } from '@storefront/domain';

export class InMemorySlotPlaces implements SlotPlaces {
  /** Slot start → order id → lease end (epoch ms), null when confirmed. */
  private readonly holders = new Map<number, Map<string, number | null>>();

  async take(slot: Date, orderId: string, capacity: number, heldUntil: Date): Promise<boolean> {
    const key = slot.getTime();
    let held = this.holders.get(key);
    if (held?.has(orderId) === true) {
      if (held.get(orderId) !== null) held.set(orderId, heldUntil.getTime());
      return true;
    }
    if ((held?.size ?? 0) >= capacity) return false;
    if (held === undefined) this.holders.set(key, (held = new Map()));
    held.set(orderId, heldUntil.getTime());
    return true;
  }

  async confirm(slot: Date, orderId: string): Promise<boolean> {
    const held = this.holders.get(slot.getTime());
    if (held?.has(orderId) !== true) return false;
    held.set(orderId, null);
    return true;
  }

  async release(slot: Date, orderId: string): Promise<void> {
    this.remove(slot.getTime(), orderId);
  }

  async lapsed(from: Date, to: Date, now: Date): Promise<readonly { slot: Date; orderId: string }[]> {
    const found: { slot: Date; orderId: string }[] = [];
    for (const [start, held] of this.inRange(from, to)) {
      for (const [orderId, until] of held) if (until !== null && until <= now.getTime()) found.push({ slot: new Date(start), orderId });
    }
    return found;
  }

  async evict(slot: Date, orderId: string, now: Date): Promise<boolean> {
    const until = this.holders.get(slot.getTime())?.get(orderId);
    if (until === undefined || until === null || until > now.getTime()) return false;
    this.remove(slot.getTime(), orderId);
    return true;
  }

  async taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>> {
    return new Map(this.inRange(from, to).map(([start, held]) => [start, held.size]));
  }

  private inRange(from: Date, to: Date): [number, Map<string, number | null>][] {
    const [lo, hi] = [from.getTime(), to.getTime()];
    return [...this.holders].filter(([start]) => start >= lo && start < hi);
  }

  private remove(key: number, orderId: string): void {
    const held = this.holders.get(key);
    if (held === undefined) return;
    held.delete(orderId);
    if (held.size === 0) this.holders.delete(key);
  }
}
