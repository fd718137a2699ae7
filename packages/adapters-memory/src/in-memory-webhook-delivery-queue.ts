/** The delivery queue of a memory webhook delivery store (its rows: webhook-delivery-rows.ts). */
import { randomUUID } from 'node:crypto';
import type { WebhookDeliveryQueue } from '@storefront/domain';
import { type DeliveryOutcome, type LeasedDelivery, type LeaseRequest, newId, type WebhookDeliveryStats, type WebhookEvent } from '@storefront/domain/adapter-kit';
import { toLeased, type DeliveryRow } from './webhook-delivery-row.js';
import { copyEvent, readyFirst, type EndpointDeliveries, type ReadyEntry, type WebhookDeliveryRows } from './webhook-delivery-rows.js';

export class InMemoryWebhookDeliveryQueue implements WebhookDeliveryQueue {
  constructor(private readonly store: WebhookDeliveryRows) {}

  async enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void> {
    // One copy for every endpoint's row: only an erasure changes it (a copy again).
    const stored = copyEvent(event);
    for (const webhookId of new Set(webhookIds)) {
      const deliveries = this.store.endpoint(webhookId);
      if (deliveries.byEvent.has(event.eventId)) continue;
      const row: DeliveryRow = {
        event: stored,
        deliveryId: newId('wdl'),
        webhookId,
        seq: this.store.seq++,
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
      this.store.insert(deliveries, row);
    }
  }

  async lease(request: LeaseRequest): Promise<LeasedDelivery[]> {
    const now = request.now.getTime();
    const excluded = new Set(request.excludeWebhookIds ?? []);
    const queues = [...new Set(request.webhookIds)]
      .filter((id) => !excluded.has(id))
      .map((id) => this.store.endpoints.get(id))
      .filter((deliveries) => deliveries !== undefined);
    const leased: LeasedDelivery[] = [];
    const leaseUntil = now + Math.max(1, request.leaseMs);
    while (leased.length < request.limit) {
      let next: EndpointDeliveries | undefined;
      let nextEntry: ReadyEntry | undefined;
      for (const deliveries of queues) {
        const entry = this.store.readyTop(deliveries);
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
      this.store.schedule(next, row);
      leased.push(toLeased(row));
    }
    return leased;
  }

  async record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    const row = this.store.rows.get(deliveryId);
    if (row === undefined || row.status !== 'pending' || row.leaseToken !== leaseToken) return false;
    const deliveries = this.store.endpoint(row.webhookId);
    row.attempts += 1;
    row.lastStatusCode = outcome.statusCode;
    row.lastError = outcome.kind === 'delivered' ? undefined : outcome.error;
    row.leaseToken = undefined;
    row.leaseUntil = undefined;
    if (outcome.kind === 'retry') {
      row.nextAttemptAt = outcome.nextAttemptAt.getTime();
      this.store.schedule(deliveries, row);
      return true;
    }
    row.status = outcome.kind;
    row.nextAttemptAt = undefined;
    if (outcome.kind === 'delivered') row.deliveredAt = outcome.at.getTime();
    if (outcome.keepUntil !== undefined) {
      row.expiresAt = outcome.keepUntil.getTime();
      this.store.expiring.push({ at: row.expiresAt, row });
    }
    this.store.leavePending(deliveries, row);
    return true;
  }

  async stats(): Promise<WebhookDeliveryStats> {
    for (;;) {
      const top = this.store.oldestPending.peek();
      if (top === undefined) return { pending: this.store.pendingCount };
      const { row } = top;
      if (!row.removed && row.status === 'pending' && row.pendingSince === top.pendingSince) {
        return { pending: this.store.pendingCount, oldestPendingAt: new Date(row.event.createdAt) };
      }
      this.store.oldestPending.pop();
    }
  }
}
