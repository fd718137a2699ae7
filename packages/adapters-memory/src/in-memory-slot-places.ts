/**
 * Places taken per slot, in process memory: one set of order ids per slot start. Each call runs
 * to completion without awaiting, which makes "take a place if one is left" atomic here; with
 * several processes, places must live in a shared store (MongoDB, PostgreSQL).
 */
import type { SlotPlaces } from '@storefront/domain';

export class InMemorySlotPlaces implements SlotPlaces {
  private readonly holders = new Map<number, Set<string>>();

  async take(slot: Date, orderId: string, capacity: number): Promise<boolean> {
    const key = slot.getTime();
    let held = this.holders.get(key);
    if (held?.has(orderId) === true) return true;
    if ((held?.size ?? 0) >= capacity) return false;
    if (held === undefined) this.holders.set(key, (held = new Set()));
    held.add(orderId);
    return true;
  }

  async release(slot: Date, orderId: string): Promise<void> {
    const key = slot.getTime();
    const held = this.holders.get(key);
    if (held === undefined) return;
    held.delete(orderId);
    if (held.size === 0) this.holders.delete(key);
  }

  async taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>> {
    const counts = new Map<number, number>();
    const [lo, hi] = [from.getTime(), to.getTime()];
    for (const [start, held] of this.holders) if (start >= lo && start < hi) counts.set(start, held.size);
    return counts;
  }
}
