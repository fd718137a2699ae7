/**
 * Publishing order events from the outbox: the store marks every change unpublished in the same
 * write; the relay appends due events to the log (and enqueues webhook deliveries), then marks them
 * published: out only once stored, always (a failed append retried every `retryMs`), never twice
 * (idempotent per order and version). `notify` publishes at the next turn of the event loop, every
 * change notified until then in one drain; a new order handed over with its notice is published
 * from what was written, without reading it back from the outbox. The timer sweeps what was left
 * behind (docs/decisions.md, "Live order updates").
 */
import type { Order } from './order.js';
import { unpublishedEvents, type OrderEventData } from './order-event.js';
import type { OrderEventLog } from './order-event-log.js';
import type { OrderOutbox, UnpublishedOrder } from './order-outbox.js';
import { clearTimer, setTimer } from '../shared/timers.js';
import type { WebhookFeed } from '../webhooks/webhook-feed.js';

export interface OrderEventRelayOptions {
  /** How often the outbox is swept for what was not published at once. Default 1,000 ms. */
  readonly sweepMs?: number;
  /** Orders read from the outbox per step. Default 100. */
  readonly batchSize?: number;
  /** Told once when publishing starts failing, and once when it works again. */
  readonly onFailure?: (error: unknown) => void;
  readonly onRecovery?: () => void;
}

/** Steps of one drain at most, so that a store that never clears its marks cannot spin the relay. */
const MAX_STEPS_PER_DRAIN = 50;

export class OrderEventRelay {
  private readonly sweepMs: number;
  private readonly batchSize: number;
  private running: Promise<void> | null = null;
  /** The one drain that follows the running one, for changes stored while it ran. */
  private following: Promise<void> | null = null;
  private timer: unknown = null;
  /** The turn that will publish the changes notified since the last one. */
  private notified: unknown = null;
  /** New orders handed over since the last drain began, published as written (none of their versions is published). */
  private placed: Order[] = [];
  /** Whether a change was notified without its order since the last drain began: the outbox must be read. */
  private outboxDue = false;
  private started = false;
  private failing = false;

  constructor(
    private readonly outbox: OrderOutbox,
    private readonly log: OrderEventLog,
    private readonly options: OrderEventRelayOptions = {},
    private readonly webhooks: WebhookFeed | null = null,
  ) {
    this.sweepMs = options.sweepMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
  }

  /**
   * A change was stored: publish it at the next turn of the event loop, with every change stored
   * before then (one outbox read for them all; coalesced with any drain in progress). `placed`: the
   * change is this new order, as the store wrote it, none of its versions published; it is published
   * from this copy, and the outbox is read only for changes notified without one. Should publishing
   * fail, the sweep finds the order in the outbox.
   */
  notify(placed?: Order): void {
    if (placed === undefined) this.outboxDue = true;
    else this.placed.push(placed);
    if (this.notified !== null) return;
    this.notified = setTimer(() => {
      this.notified = null;
      void this.publish();
    }, 0);
  }

  /**
   * Publishes everything due; resolves when the outbox was empty at some point after the call
   * (or publishing failed: it is retried by the sweep). Never rejects.
   */
  drain(): Promise<void> {
    this.outboxDue = true;
    return this.publish();
  }

  /** Publishes what was handed over, and the outbox when it is due (coalesced with a drain in progress). */
  private publish(): Promise<void> {
    if (this.running !== null) {
      // The running drain may have read the outbox before this change: one more follows it.
      return (this.following ??= this.running.then(() => {
        this.following = null;
        return this.publish();
      }));
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Starts the sweep. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
  }

  /** Stops the sweep and waits for a drain in progress, and for the one asked to follow it. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== null) clearTimer(this.timer);
    this.timer = null;
    if (this.notified !== null) {
      // Changes notified but not yet published: publish them now, before the adapters close.
      clearTimer(this.notified);
      this.notified = null;
      void this.publish();
    }
    // The following drain resolves after the running one and its own run: awaiting the running one
    // alone would let the following one start on adapters about to be closed.
    await (this.following ?? this.running);
  }

  private schedule(): void {
    if (!this.started) return;
    this.timer = setTimer(() => {
      this.timer = null;
      void this.drain().then(() => this.schedule());
    }, this.sweepMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async run(): Promise<void> {
    const placed = this.placed;
    this.placed = [];
    const readOutbox = this.outboxDue;
    this.outboxDue = false;
    try {
      for (let from = 0; from < placed.length; from += this.batchSize) {
        await this.publishBatch(placed.slice(from, from + this.batchSize).map((order) => ({ order, publishedVersion: 0 })));
      }
      for (let step = 0; readOutbox && step < MAX_STEPS_PER_DRAIN; step++) {
        const due = await this.outbox.listUnpublished(this.batchSize);
        if (due.length === 0) break;
        await this.publishBatch(due);
        if (due.length < this.batchSize) break;
      }
      if (this.failing) {
        this.failing = false;
        this.options.onRecovery?.();
      }
    } catch (error) {
      if (!this.failing) {
        this.failing = true;
        this.options.onFailure?.(error);
      }
    }
  }

  /** Appends the batch's due events, enqueues their deliveries, then marks them published. */
  private async publishBatch(due: readonly UnpublishedOrder[]): Promise<void> {
    const events: OrderEventData[] = due.flatMap(({ order, publishedVersion }) => unpublishedEvents(order, publishedVersion));
    await this.log.append(events);
    await this.webhooks?.enqueue(events);
    if (this.outbox.markAllPublished !== undefined) await this.outbox.markAllPublished(due.map(({ order }) => ({ orderId: order.orderId, version: order.version })));
    else await Promise.all(due.map(({ order }) => this.outbox.markPublished(order.orderId, order.version)));
  }
}
