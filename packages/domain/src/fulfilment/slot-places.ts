/**
 * Port: the places taken in each slot, when slots have a capacity. A place is held by an order id,
 * so taking is idempotent (a retried placement, which keeps its reserved order id, never takes a
 * second place) and giving back is too (a cancel retried, or a reject after a cancel, frees one
 * place at most). Shared by every instance of the service: a database does the counting.
 *
 * A place is first held *pending*, until a time the caller gives (the placement's lease), and
 * held for good once the order is stored (`confirm`). A pending place whose lease has ended
 * (`lapsed`) belongs to a placement that failed or died: the domain gives it back (`evict`) when
 * its order was never stored, and confirms it when it was (docs/decisions.md, "Slot places").
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

