/**
 * Following orders live: the kitchen's feed (every event) and one order's (its status), each able
 * to resume after an event id: increasing ids, none twice or missing, or a `reset` when the id is
 * outside the log's window (docs/decisions.md). A feed subscribes first (holding live events),
 * reads the log up to its head, then releases what it held, dropping ids it has. One hub per
 * process subscribes to the log once and routes each event to its feeds.
 */
import { DomainError } from '../shared/errors.js';
import { isStaffRole } from '../accounts/customer.js';
import type { Order } from './order.js';
import { compareEventIds, isEventId, isKitchenEvent, statusSnapshot, type OrderEvent } from './order-event.js';
import type { OrderEventListener, OrderEventLog } from './order-event-log.js';
import type { OrderRepository } from './order-repository.js';
import type { Viewer } from './order-access.js';

/** What a feed hands its sink. */
export type FeedItem = { readonly kind: 'event'; readonly event: OrderEvent } | { readonly kind: 'reset' };

export type FeedSink = (item: FeedItem) => void;

/** An open feed: closing it stops delivery at once. */
export interface Feed {
  close(): void;
}

export interface OpenKitchenFeedInput {
  /** The id the client saw last (Last-Event-ID): the feed replays what came after it. */
  readonly lastEventId?: string | undefined;
}

export interface OpenOrderFeedInput extends OpenKitchenFeedInput {
  readonly viewer: Viewer;
  readonly orderId: string;
}

/** Events replayed per read of the log. */
const REPLAY_PAGE = 500;

interface Route {
  deliver(event: OrderEvent): void;
  gap(): void;
}

/** One subscription to the log per process, routed to the open feeds. */
class FeedHub implements OrderEventListener {
  private readonly kitchen = new Set<Route>();
  private readonly byOrder = new Map<string, Set<Route>>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly log: OrderEventLog) {}

  get size(): number {
    let n = this.kitchen.size;
    for (const routes of this.byOrder.values()) n += routes.size;
    return n;
  }

  add(route: Route, orderId: string | null): () => void {
    this.unsubscribe ??= this.log.subscribe(this);
    if (orderId === null) {
      this.kitchen.add(route);
      return () => this.kitchen.delete(route);
    }
    let routes = this.byOrder.get(orderId);
    if (routes === undefined) this.byOrder.set(orderId, (routes = new Set()));
    routes.add(route);
    return () => {
      routes.delete(route);
      if (routes.size === 0 && this.byOrder.get(orderId) === routes) this.byOrder.delete(orderId);
    };
  }

  event(event: OrderEvent): void {
    for (const route of this.kitchen) route.deliver(event);
    const routes = this.byOrder.get(event.orderId);
    if (routes !== undefined) for (const route of routes) route.deliver(event);
  }

  gap(): void {
    for (const route of this.kitchen) route.gap();
    for (const routes of this.byOrder.values()) for (const route of routes) route.gap();
  }
}

/** One feed: holds live events back until its replay is written, then passes them on in id order. */
class FeedRoute implements Route {
  private held: OrderEvent[] | null = [];
  /** The id of the last item handed to the sink (events only). */
  private cursor: string | null = null;
  /** Order feeds only (one order): the newest version the sink has; older status events are dropped. */
  private version = 0;
  closed = false;
  remove: () => void = () => undefined;

  constructor(
    private readonly sink: FeedSink,
    /** What the feed shows of an event: the event, another view of it, or null to skip it. */
    private readonly view: (event: OrderEvent) => OrderEvent | null,
    /** True for one order's feed: its versions only grow, so a status already shown is dropped. */
    private readonly oneOrder: boolean,
  ) {}

  deliver(event: OrderEvent): void {
    if (this.closed) return;
    if (this.held !== null) this.held.push(event);
    else this.pass(event);
  }

  gap(): void {
    if (this.closed) return;
    if (this.held !== null) this.held.length = 0;
    this.sink({ kind: 'reset' });
  }

  /** Replay written up to `cursor`: release what was held back. */
  goLive(cursor: string): void {
    if (this.cursor === null || compareEventIds(cursor, this.cursor) > 0) this.cursor = cursor;
    const held = this.held ?? [];
    this.held = null;
    for (const event of held) this.pass(event);
  }

  pass(event: OrderEvent): void {
    if (this.closed) return;
    if (this.cursor !== null && compareEventIds(event.id, this.cursor) <= 0) return;
    this.cursor = event.id;
    const shown = this.view(event);
    if (shown === null) return;
    if (this.oneOrder) {
      if (shown.version <= this.version) return;
      this.version = shown.version;
    }
    this.sink({ kind: 'event', event: shown });
  }

  /** An event written first (the order feed's snapshot): its id is the cursor. */
  first(event: OrderEvent): void {
    this.version = event.version;
    this.cursor = event.id;
    this.sink({ kind: 'event', event });
  }

  reset(): void {
    this.sink({ kind: 'reset' });
  }

  /** The client has everything up to `id`: a replay continues after it. */
  resumeAfter(id: string | null): void {
    this.cursor = id;
  }
}

/**
 * One order's feed shows its status moves: every `order.status`, and the paid order's `placed` as
 * one (its placement at version 1 is what the feed's snapshot shows); not payment-only changes.
 */
function statusView(event: OrderEvent): OrderEvent | null {
  if (event.type === 'order.status') return event;
  if (event.type !== 'order.placed' || event.version === 1) return null;
  const { order: _order, ...rest } = event;
  return { ...rest, type: 'order.status' };
}

const notFound = (): DomainError => new DomainError('not_found', 'No such order.');

/** Opens kitchen and order feeds on one log. */
export class OrderFeeds {
  private readonly hub: FeedHub;

  constructor(
    private readonly log: OrderEventLog,
    private readonly orders: OrderRepository,
  ) {
    this.hub = new FeedHub(log);
  }

  /** Feeds open in this process. */
  get open(): number {
    return this.hub.size;
  }

  /**
   * Every paid order's events (`order.placed`, `order.status`, `order.refunded`, `order.payment`):
   * the kitchen's screen, which follows each order's version for its next move. Nothing of an
   * order awaiting its payment, nor of one cancelled unpaid.
   */
  async openKitchen(input: OpenKitchenFeedInput, sink: FeedSink): Promise<Feed> {
    const route = new FeedRoute(sink, (event) => (isKitchenEvent(event) ? event : null), false);
    return this.start(route, null, async () => {
      if (await this.resume(route, input.lastEventId)) return;
      route.goLive((await this.log.position()).head);
    });
  }

  /**
   * One order's status changes, for its owner or the kitchen (anybody else: `not_found`, before
   * anything is written). Without an id to resume from, or with one outside the window (after a
   * `reset`), the feed starts with the order's current state as an `order.status` event.
   */
  async openOrder(input: OpenOrderFeedInput, sink: FeedSink): Promise<Feed> {
    const { viewer, orderId } = input;
    const visible = async (): Promise<Order | null> =>
      isStaffRole(viewer.role) ? this.orders.findById(orderId) : this.orders.findOrder(viewer.customerId, orderId);
    if ((await visible()) === null) throw notFound();
    const route = new FeedRoute(sink, (event) => (event.orderId === orderId ? statusView(event) : null), true);
    return this.start(route, orderId, async () => {
      if (await this.resume(route, input.lastEventId)) return;
      // The head and the order's newest published version, read together: the snapshot shows that
      // version, so that every later change (published after the head) follows it exactly once.
      const position = await this.log.position(orderId);
      const order = await visible();
      if (order === null) throw notFound();
      const version = position.orderVersion >= 1 && position.orderVersion <= order.version ? position.orderVersion : order.version;
      route.first(statusSnapshot(order, version, position.head));
      route.goLive(position.head);
    });
  }

  private async start(route: FeedRoute, orderId: string | null, begin: () => Promise<void>): Promise<Feed> {
    route.remove = this.hub.add(route, orderId);
    const feed: Feed = {
      close: () => {
        route.closed = true;
        route.remove();
      },
    };
    try {
      await begin();
    } catch (error) {
      feed.close();
      throw error;
    }
    return feed;
  }

  /**
   * Resumes after the client's last id: true once replayed; otherwise (no id, or one outside the
   * window, which is told with a reset first) the caller starts the feed from the head.
   */
  private async resume(route: FeedRoute, lastEventId: string | undefined): Promise<boolean> {
    if (lastEventId === undefined) return false;
    if (await this.replay(route, lastEventId)) return true;
    route.reset();
    return false;
  }

  /** Replays the log after `after` into the route; false (nothing written) when the id is outside the window. */
  private async replay(route: FeedRoute, after: string): Promise<boolean> {
    if (!isEventId(after)) return false;
    let cursor = after;
    route.resumeAfter(after);
    for (;;) {
      const replay = await this.log.readAfter(cursor, REPLAY_PAGE);
      if (replay.kind === 'reset') {
        if (cursor === after) {
          route.resumeAfter(null);
          return false;
        }
        // The window moved past the replay while it was being read: the client starts over.
        route.reset();
        route.goLive((await this.log.position()).head);
        return true;
      }
      for (const event of replay.events) {
        route.pass(event);
        cursor = event.id;
      }
      if (!replay.more) break;
    }
    route.goLive(cursor);
    return true;
  }
}
