/**
 * Publishing order events from the outbox: the store marks every change unpublished in the same
 * write; the relay appends due events to the log (and enqueues webhook deliveries), then marks them
 * published: out only once stored, always (a failed append retried every `retryMs`), never twice
 * (idempotent per order and version). `notify` publishes at the next turn of the event loop, every
 * change notified until then in one drain; the timer sweeps what was left behind (docs/decisions.md,
 * "Live order updates").
 */
import { unpublishedEvents } from './order-event.js';
import type { OrderEventLog } from './order-event-log.js';
import type { OrderOutbox } from './order-outbox.js';
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
   * before then (one outbox read for them all; coalesced with any drain in progress).
   */
  notify(): void {
    if (this.notified !== null) return;
    this.notified = setTimer(() => {
      this.notified = null;
      void this.drain();
    }, 0);
  }

  /**
   * Publishes everything due; resolves when the outbox was empty at some point after the call
   * (or publishing failed: it is retried by the sweep). Never rejects.
   */
  drain(): Promise<void> {
    if (this.running !== null) {
      // The running drain may have read the outbox before this change: one more follows it.
      return (this.following ??= this.running.then(() => {
        this.following = null;
        return this.drain();
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
      void this.drain();
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
    try {
      for (let step = 0; step < MAX_STEPS_PER_DRAIN; step++) {
        const due = await this.outbox.listUnpublished(this.batchSize);
        if (due.length === 0) break;
        const events = due.flatMap(({ order, publishedVersion }) => unpublishedEvents(order, publishedVersion));
        await this.log.append(events);
        await this.webhooks?.enqueue(events);
        if (this.outbox.markAllPublished !== undefined) await this.outbox.markAllPublished(due.map(({ order }) => ({ orderId: order.orderId, version: order.version })));
        else await Promise.all(due.map(({ order }) => this.outbox.markPublished(order.orderId, order.version)));
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
}
