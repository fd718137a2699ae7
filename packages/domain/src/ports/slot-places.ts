/**
 * Port: the places taken in each slot, when slots have a capacity. A place is held by an order id,
 * so taking is idempotent (a retried placement, which keeps its reserved order id, never takes a
 * second place) and giving back is too (a cancel retried, or a reject after a cancel, frees one
 * place at most). Shared by every instance of the service: a database does the counting.
 */
export interface SlotPlaces {
  /**
   * Atomically: when `orderId` holds a place in `slot` already, true; otherwise, when fewer than
   * `capacity` places are taken, takes one for it and answers true; otherwise false, changing
   * nothing. Of N concurrent takes of a slot with k places left, exactly k succeed.
   */
  take(slot: Date, orderId: string, capacity: number): Promise<boolean>;
  /** Gives back the place `orderId` holds in `slot`, if it holds one. */
  release(slot: Date, orderId: string): Promise<void>;
  /** Places taken in the slots starting in [from, to): slot start (epoch ms) → count; slots with none may be absent. */
  taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>>;
}
