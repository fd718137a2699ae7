/**
 * Webhook deliveries in process memory. No method awaits between its reads and its writes, so two
 * workers of this process leasing at once never get the same delivery (in memory, this process is
 * every instance).
 *
 * Leasing must not walk every pending delivery: a dead endpoint can hold thousands. Each endpoint
 * keeps a ready queue (a heap by the time a delivery may be leased) holding only the heads of its
 * orders, the pending deliveries with no lower pending version of the same order (and those
 * without an order); a later version enters it when the earlier ones leave. Heap entries are not
 * removed when a row changes: an entry whose stamp is old, or whose row is no longer a head, is
 * dropped when it reaches the top.
 */
import { randomUUID } from 'node:crypto';
import type { Page, WebhookDelivery, WebhookDeliveryStore } from '@storefront/domain';
import { type DeliveryListRequest, type DeliveryOutcome, type LeasedDelivery, type LeaseRequest, newId, pageOffset, toPage, type WebhookDeliveryStats, type WebhookEvent } from '@storefront/domain/adapter-kit';
import { MinHeap } from './min-heap.js';
import { availableAt, toDelivery, toLeased, type DeliveryRow } from './webhook-delivery-row.js';

interface ReadyEntry {
  readonly at: number;
  readonly row: DeliveryRow;
  readonly stamp: number;
}

interface ExpiringEntry {
  readonly at: number;
  readonly row: DeliveryRow;
}

interface PendingEntry {
  readonly row: DeliveryRow;
  readonly pendingSince: number;
}

/** One endpoint's deliveries. */
interface EndpointDeliveries {
  /** Oldest made first (createdAt, then enqueue order): lists read it from the end. */
  readonly rows: DeliveryRow[];
  readonly byEvent: Map<string, DeliveryRow>;
  /** Pending deliveries per order, lowest version first. */
  readonly orders: Map<string, DeliveryRow[]>;
  readonly ready: MinHeap<ReadyEntry>;
}

const readyFirst = (a: ReadyEntry, b: ReadyEntry): boolean => a.at < b.at || (a.at === b.at && a.row.seq < b.row.seq);
const madeFirst = (a: DeliveryRow, b: DeliveryRow): boolean =>
  a.event.createdAt.getTime() < b.event.createdAt.getTime() || (a.event.createdAt.getTime() === b.event.createdAt.getTime() && a.seq < b.seq);

function copyEvent(event: WebhookEvent): WebhookEvent {
  return { ...event, createdAt: new Date(event.createdAt) };
}

export class InMemoryWebhookDeliveryStore implements WebhookDeliveryStore {
  private readonly endpoints = new Map<string, EndpointDeliveries>();
  private readonly rows = new Map<string, DeliveryRow>();
  private readonly oldestPending = new MinHeap<PendingEntry>((a, b) => madeFirst(a.row, b.row));
  /** Finished rows by `expiresAt`; an entry whose row was retried or removed since is dropped when met. */
  private readonly expiring = new MinHeap<ExpiringEntry>((a, b) => a.at < b.at);
  private pendingCount = 0;
  private seq = 0;

  async enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void> {
    // One copy for every endpoint's row: only an erasure changes it (a copy again).
    const stored = copyEvent(event);
    for (const webhookId of new Set(webhookIds)) {
      const deliveries = this.endpoint(webhookId);
      if (deliveries.byEvent.has(event.eventId)) continue;
      const row: DeliveryRow = {
        event: stored,
        deliveryId: newId('wdl'),
        webhookId,
        seq: this.seq++,
        status: 'pending',
        attempts: 0,
        lastStatusCode: undefined,
        lastError: undefined,
        nextAttemptAt: event.createdAt.getTime(),
        deliveredAt: undefined,
        leaseToken: undefined,
        leaseUntil: undefined,
        expiresAt: undefined,
        stamp: 0,
        pendingSince: 0,
        removed: false,
      };
      this.rows.set(row.deliveryId, row);
      deliveries.byEvent.set(event.eventId, row);
      insertSorted(deliveries.rows, row);
      this.becomePending(deliveries, row);
    }
  }

  async rewritePayload(eventId: string, payload: string): Promise<void> {
    for (const deliveries of this.endpoints.values()) {
      const row = deliveries.byEvent.get(eventId);
      if (row !== undefined) row.event = { ...row.event, payload };
    }
  }

  async lease(request: LeaseRequest): Promise<LeasedDelivery[]> {
    const now = request.now.getTime();
    const excluded = new Set(request.excludeWebhookIds ?? []);
    const queues = [...new Set(request.webhookIds)]
      .filter((id) => !excluded.has(id))
      .map((id) => this.endpoints.get(id))
      .filter((deliveries) => deliveries !== undefined);
    const leased: LeasedDelivery[] = [];
    const leaseUntil = now + Math.max(1, request.leaseMs);
    while (leased.length < request.limit) {
      let next: EndpointDeliveries | undefined;
      let nextEntry: ReadyEntry | undefined;
      for (const deliveries of queues) {
        const entry = this.readyTop(deliveries);
        if (entry !== undefined && entry.at <= now && (nextEntry === undefined || readyFirst(entry, nextEntry))) {
          next = deliveries;
          nextEntry = entry;
        }
      }
      if (next === undefined || nextEntry === undefined) break;
      next.ready.pop();
      const row = nextEntry.row;
      row.leaseToken = randomUUID();
      row.leaseUntil = leaseUntil;
      this.schedule(next, row);
      leased.push(toLeased(row));
    }
    return leased;
  }

  async record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    const row = this.rows.get(deliveryId);
    if (row === undefined || row.status !== 'pending' || row.leaseToken !== leaseToken) return false;
    const deliveries = this.endpoint(row.webhookId);
    row.attempts += 1;
    row.lastStatusCode = outcome.statusCode;
    row.lastError = outcome.kind === 'delivered' ? undefined : outcome.error;
    row.leaseToken = undefined;
    row.leaseUntil = undefined;
    if (outcome.kind === 'retry') {
      row.nextAttemptAt = outcome.nextAttemptAt.getTime();
      this.schedule(deliveries, row);
      return true;
    }
    row.status = outcome.kind;
    row.nextAttemptAt = undefined;
    if (outcome.kind === 'delivered') row.deliveredAt = outcome.at.getTime();
    if (outcome.keepUntil !== undefined) {
      row.expiresAt = outcome.keepUntil.getTime();
      this.expiring.push({ at: row.expiresAt, row });
    }
    this.leavePending(deliveries, row);
    return true;
  }

  async get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null> {
    const row = this.rows.get(deliveryId);
    return row === undefined || row.webhookId !== webhookId ? null : toDelivery(row);
  }

  async list(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>> {
    const rows = this.endpoints.get(webhookId)?.rows ?? [];
    const matching = request.status === undefined ? rows : rows.filter((row) => row.status === request.status);
    const end = matching.length - pageOffset(request);
    const page = end <= 0 ? [] : matching.slice(Math.max(0, end - request.limit), end).reverse();
    return toPage(page.map(toDelivery), matching.length, request);
  }

  async retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    const row = this.rows.get(deliveryId);
    if (row === undefined || row.webhookId !== webhookId) return false;
    const deliveries = this.endpoint(webhookId);
    row.nextAttemptAt = now.getTime();
    if (row.status === 'pending') {
      this.schedule(deliveries, row);
      return true;
    }
    row.status = 'pending';
    row.deliveredAt = undefined;
    row.expiresAt = undefined;
    this.becomePending(deliveries, row);
    return true;
  }

  async removeEndpoint(webhookId: string): Promise<void> {
    const deliveries = this.endpoints.get(webhookId);
    if (deliveries === undefined) return;
    for (const row of deliveries.rows) {
      if (row.status === 'pending') this.pendingCount -= 1;
      row.removed = true;
      this.rows.delete(row.deliveryId);
    }
    this.endpoints.delete(webhookId);
  }

  async removeExpired(now: Date, limit: number): Promise<number> {
    const gone = new Set<DeliveryRow>();
    for (let top = this.expiring.peek(); top !== undefined && top.at <= now.getTime() && gone.size < limit; top = this.expiring.peek()) {
      this.expiring.pop();
      const { row } = top;
      if (row.removed || row.status === 'pending' || row.expiresAt !== top.at) continue;
      row.removed = true;
      this.rows.delete(row.deliveryId);
      gone.add(row);
    }
    for (const webhookId of new Set([...gone].map((row) => row.webhookId))) {
      const deliveries = this.endpoints.get(webhookId)!;
      // Compacted in place, keeping the order.
      let kept = 0;
      for (const row of deliveries.rows) {
        if (gone.has(row)) deliveries.byEvent.delete(row.event.eventId);
        else deliveries.rows[kept++] = row;
      }
      deliveries.rows.length = kept;
      if (kept === 0) this.endpoints.delete(webhookId);
    }
    return gone.size;
  }

  async endpointsWithDeliveries(): Promise<string[]> {
    return [...this.endpoints.keys()];
  }

  async stats(): Promise<WebhookDeliveryStats> {
    for (;;) {
      const top = this.oldestPending.peek();
      if (top === undefined) return { pending: this.pendingCount };
      const { row } = top;
      if (!row.removed && row.status === 'pending' && row.pendingSince === top.pendingSince) {
        return { pending: this.pendingCount, oldestPendingAt: new Date(row.event.createdAt) };
      }
      this.oldestPending.pop();
    }
  }

  private endpoint(webhookId: string): EndpointDeliveries {
    let deliveries = this.endpoints.get(webhookId);
    if (deliveries === undefined) {
      deliveries = { rows: [], byEvent: new Map(), orders: new Map(), ready: new MinHeap(readyFirst) };
      this.endpoints.set(webhookId, deliveries);
    }
    return deliveries;
  }

  /** The ready queue's first entry that still stands for its row, stale ones dropped. */
  private readyTop(deliveries: EndpointDeliveries): ReadyEntry | undefined {
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
  private schedule(deliveries: EndpointDeliveries, row: DeliveryRow): void {
    row.stamp += 1;
    if (row.status === 'pending' && this.isHead(deliveries, row)) deliveries.ready.push({ at: availableAt(row), row, stamp: row.stamp });
  }

  private becomePending(deliveries: EndpointDeliveries, row: DeliveryRow): void {
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

  private leavePending(deliveries: EndpointDeliveries, row: DeliveryRow): void {
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
