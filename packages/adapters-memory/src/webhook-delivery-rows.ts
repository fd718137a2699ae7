/**
 * The webhook deliveries in process memory, shared by the three memory ports of one store
 * (InMemoryWebhookDeliveryQueue, -Log, -Upkeep). No port method awaits between its reads and
 * writes, so two workers never lease the same delivery. Each endpoint keeps a heap of only the
 * heads of its orders (no lower pending version), so a lease never walks the thousands a dead
 * endpoint holds; stale heap entries are dropped when they reach the top.
 */
import type { WebhookEvent } from '@storefront/domain/adapter-kit';
import { MinHeap } from './min-heap.js';
import { availableAt, type DeliveryRow } from './webhook-delivery-row.js';

export interface ReadyEntry {
  readonly at: number;
  readonly row: DeliveryRow;
  readonly stamp: number;
}

export interface ExpiringEntry {
  readonly at: number;
  readonly row: DeliveryRow;
}

export interface PendingEntry {
  readonly row: DeliveryRow;
  readonly pendingSince: number;
}

/** One endpoint's deliveries. */
export interface EndpointDeliveries {
  /** Oldest made first (createdAt, then enqueue order): lists read it from the end. */
  readonly rows: DeliveryRow[];
  readonly byEvent: Map<string, DeliveryRow>;
  /** Pending deliveries per order, lowest version first. */
  readonly orders: Map<string, DeliveryRow[]>;
  readonly ready: MinHeap<ReadyEntry>;
}

export const readyFirst = (a: ReadyEntry, b: ReadyEntry): boolean => a.at < b.at || (a.at === b.at && a.row.seq < b.row.seq);
const madeFirst = (a: DeliveryRow, b: DeliveryRow): boolean =>
  a.event.createdAt.getTime() < b.event.createdAt.getTime() || (a.event.createdAt.getTime() === b.event.createdAt.getTime() && a.seq < b.seq);

export function copyEvent(event: WebhookEvent): WebhookEvent {
  return { ...event, createdAt: new Date(event.createdAt) };
}

export class WebhookDeliveryRows {
  readonly endpoints = new Map<string, EndpointDeliveries>();
  readonly rows = new Map<string, DeliveryRow>();
  readonly oldestPending = new MinHeap<PendingEntry>((a, b) => madeFirst(a.row, b.row));
  /** Finished rows by `expiresAt`; an entry whose row was retried or removed since is dropped when met. */
  readonly expiring = new MinHeap<ExpiringEntry>((a, b) => a.at < b.at);
  pendingCount = 0;
  seq = 0;

  /** Stores a new pending row (its endpoint has none of its event). */
  insert(deliveries: EndpointDeliveries, row: DeliveryRow): void {
    this.rows.set(row.deliveryId, row);
    deliveries.byEvent.set(row.event.eventId, row);
    insertSorted(deliveries.rows, row);
    this.becomePending(deliveries, row);
  }

  endpoint(webhookId: string): EndpointDeliveries {
    let deliveries = this.endpoints.get(webhookId);
    if (deliveries === undefined) {
      deliveries = { rows: [], byEvent: new Map(), orders: new Map(), ready: new MinHeap(readyFirst) };
      this.endpoints.set(webhookId, deliveries);
    }
    return deliveries;
  }

  /** The ready queue's first entry that still stands for its row, stale ones dropped. */
  readyTop(deliveries: EndpointDeliveries): ReadyEntry | undefined {
    for (;;) {
      const entry = deliveries.ready.peek();
      if (entry === undefined) return undefined;
      const { row } = entry;
      if (!row.removed && row.status === 'pending' && row.stamp === entry.stamp && this.isHead(deliveries, row)) return entry;
      deliveries.ready.pop();
    }
  }

  /** No pending delivery of the same endpoint and order has a lower version. */
  private isHead(deliveries: EndpointDeliveries, row: DeliveryRow): boolean {
    const { orderId, orderVersion } = row.event;
    if (orderId === undefined || orderVersion === undefined) return true;
    const first = deliveries.orders.get(orderId)?.[0];
    return first === undefined || (first.event.orderVersion ?? 0) >= orderVersion;
  }

  /** (Re)queues `row` at the time it may be leased; earlier entries for it stop counting. */
  schedule(deliveries: EndpointDeliveries, row: DeliveryRow): void {
    row.stamp += 1;
    if (row.status === 'pending' && this.isHead(deliveries, row)) deliveries.ready.push({ at: availableAt(row), row, stamp: row.stamp });
  }

  becomePending(deliveries: EndpointDeliveries, row: DeliveryRow): void {
    this.pendingCount += 1;
    row.pendingSince += 1;
    this.oldestPending.push({ row, pendingSince: row.pendingSince });
    const { orderId, orderVersion } = row.event;
    if (orderId !== undefined && orderVersion !== undefined) {
      const chain = deliveries.orders.get(orderId) ?? [];
      let at = chain.length;
      while (at > 0 && (chain[at - 1]!.event.orderVersion ?? 0) > orderVersion) at -= 1;
      chain.splice(at, 0, row);
      deliveries.orders.set(orderId, chain);
    }
    this.schedule(deliveries, row);
  }

  leavePending(deliveries: EndpointDeliveries, row: DeliveryRow): void {
    this.pendingCount -= 1;
    const { orderId } = row.event;
    const chain = orderId === undefined ? undefined : deliveries.orders.get(orderId);
    if (orderId === undefined || chain === undefined) return;
    const wasFirst = chain[0] === row;
    chain.splice(chain.indexOf(row), 1);
    if (chain.length === 0) {
      deliveries.orders.delete(orderId);
      return;
    }
    // The versions now lowest become heads: queue them (a leased one waits for its lease's end).
    const lowest = chain[0]!.event.orderVersion;
    if (wasFirst) for (const next of chain) if (next.event.orderVersion === lowest) this.schedule(deliveries, next);
  }
}

/** Inserts `row` into `rows` (oldest made first); enqueues mostly come in order, so the search starts at the end. */
function insertSorted(rows: DeliveryRow[], row: DeliveryRow): void {
  let at = rows.length;
  while (at > 0 && madeFirst(row, rows[at - 1]!)) at -= 1;
  if (at === rows.length) rows.push(row);
  else rows.splice(at, 0, row);
}
