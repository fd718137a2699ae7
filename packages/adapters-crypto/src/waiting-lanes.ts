/**
 * The tasks waiting for a permit of the Semaphore, one lane per client key, so that waiting is fair
 * between clients: lanes take turns one task each, a quiet client's lane joins at the front, a lane
 * longer by two or more gives its newest place to a newcomer, and deadlines run in arrival order
 * across lanes (docs/decisions.md, "A fair queue for the hashes"). Everything is O(1) but
 * `longest`, which walks the lanes (at most one per waiting place).
 */

/** A waiting task, linked in arrival order (deadlines) and in its lane (turns). */
export interface Waiter {
  readonly due: number;
  readonly grant: () => void;
  readonly refuse: (reason: 'full' | 'timeout') => void;
  lane: Lane | undefined;
  prev: Waiter | undefined;
  next: Waiter | undefined;
  prevInLane: Waiter | undefined;
  nextInLane: Waiter | undefined;
}

/** One client's waiters, oldest first, and its place in the turn order. */
export interface Lane {
  readonly key: string;
  size: number;
  head: Waiter | undefined;
  tail: Waiter | undefined;
  prev: Lane | undefined;
  next: Lane | undefined;
}

export class WaitingLanes {
  size = 0;
  private oldestWaiter: Waiter | undefined;
  private newestWaiter: Waiter | undefined;
  private readonly lanes = new Map<string, Lane>();
  private front: Lane | undefined;
  private back: Lane | undefined;

  /** The waiter that is due first. */
  get oldest(): Waiter | undefined {
    return this.oldestWaiter;
  }

  /** How many tasks `key` has waiting. */
  sizeOf(key: string): number {
    return this.lanes.get(key)?.size ?? 0;
  }

  /** The lane with the most waiters (the first of them in turn order on a tie). */
  longest(): Lane | undefined {
    let longest: Lane | undefined;
    for (let lane = this.front; lane !== undefined; lane = lane.next) if (longest === undefined || lane.size > longest.size) longest = lane;
    return longest;
  }

  add(key: string, waiter: Waiter): void {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { key, size: 0, head: undefined, tail: undefined, prev: undefined, next: undefined };
      this.lanes.set(key, lane);
      this.linkLane(lane, this.front);
    }
    waiter.lane = lane;
    waiter.prevInLane = lane.tail;
    if (lane.tail === undefined) lane.head = waiter;
    else lane.tail.nextInLane = waiter;
    lane.tail = waiter;
    lane.size += 1;
    waiter.prev = this.newestWaiter;
    if (this.newestWaiter === undefined) this.oldestWaiter = waiter;
    else this.newestWaiter.next = waiter;
    this.newestWaiter = waiter;
    this.size += 1;
  }

  /** Takes the next waiter in turn, and sends its lane to the back when it has more. */
  takeTurn(): Waiter | undefined {
    const lane = this.front;
    const waiter = lane?.head;
    if (lane === undefined || waiter === undefined) return undefined;
    this.remove(waiter);
    if (lane.size > 0 && lane !== this.back) {
      this.unlinkLane(lane);
      this.linkLane(lane, undefined);
    }
    return waiter;
  }

  remove(waiter: Waiter): void {
    const lane = waiter.lane;
    if (lane === undefined) return;
    waiter.lane = undefined;
    if (waiter.prevInLane === undefined) lane.head = waiter.nextInLane;
    else waiter.prevInLane.nextInLane = waiter.nextInLane;
    if (waiter.nextInLane === undefined) lane.tail = waiter.prevInLane;
    else waiter.nextInLane.prevInLane = waiter.prevInLane;
    lane.size -= 1;
    if (lane.size === 0) {
      this.unlinkLane(lane);
      this.lanes.delete(lane.key);
    }
    if (waiter.prev === undefined) this.oldestWaiter = waiter.next;
    else waiter.prev.next = waiter.next;
    if (waiter.next === undefined) this.newestWaiter = waiter.prev;
    else waiter.next.prev = waiter.prev;
    waiter.prev = waiter.next = waiter.prevInLane = waiter.nextInLane = undefined;
    this.size -= 1;
  }

  /** Puts `lane` in the turn order before `before` (at the back when undefined). */
  private linkLane(lane: Lane, before: Lane | undefined): void {
    lane.next = before;
    lane.prev = before === undefined ? this.back : before.prev;
    if (lane.prev === undefined) this.front = lane;
    else lane.prev.next = lane;
    if (before === undefined) this.back = lane;
    else before.prev = lane;
  }

  private unlinkLane(lane: Lane): void {
    if (lane.prev === undefined) this.front = lane.next;
    else lane.prev.next = lane.next;
    if (lane.next === undefined) this.back = lane.prev;
    else lane.next.prev = lane.prev;
    lane.prev = lane.next = undefined;
  }
}
