/**
 * Port: the places taken in each slot, when slots have a capacity; a database does the counting for
 * every instance. A place is held by an order id, so taking and giving back are idempotent (a
 * retried placement keeps its order id). It is pending until the caller's lease ends, and held for
 * good once the order is stored (`confirm`); a `lapsed` one is given back (`evict`) or confirmed by
 * the domain (docs/decisions.md, "Slot places").
 */
export interface SlotPlaces {
  /**
   * Atomically: when `orderId` holds a place in `slot` already, true (a pending place's lease is
   * renewed to `heldUntil`); otherwise, when fewer than `capacity` places are taken (pending ones
   * included), takes one pending until `heldUntil` and answers true; otherwise false, changing
   * nothing. Of N concurrent takes of a slot with k places left, exactly k succeed.
   */
  take(slot: Date, orderId: string, capacity: number, heldUntil: Date): Promise<boolean>;
  /** The order is stored: its place is held for good. False when `orderId` holds no place in `slot`. */
  confirm(slot: Date, orderId: string): Promise<boolean>;
  /** Gives back the place `orderId` holds in `slot`, if it holds one. */
  release(slot: Date, orderId: string): Promise<void>;
  /** The pending places of the slots starting in [from, to) whose lease ended at or before `now`. */
  lapsed(from: Date, to: Date, now: Date): Promise<readonly { readonly slot: Date; readonly orderId: string }[]>;
  /**
   * Gives back the place `orderId` holds in `slot` only if it is still pending with its lease
   * ended at or before `now` (a renewed or confirmed place stays). True when it was given back.
   */
  evict(slot: Date, orderId: string, now: Date): Promise<boolean>;
  /** Places taken in the slots starting in [from, to): slot start (epoch ms) → count; slots with none may be absent. */
  taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>>;
}

