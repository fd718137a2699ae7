/**
 * One webhook delivery as the memory store keeps it: the event (changed only by an erasure's
 * `rewritePayload`) and the fields an attempt changes, times as epoch milliseconds. `stamp` and `pendingSince` tell the
 * store's lazily cleaned heaps which of their entries still stand for the row.
 */
import type { WebhookDelivery } from '@storefront/domain';
import type { LeasedDelivery, WebhookDeliveryStatus, WebhookEvent } from '@storefront/domain/adapter-kit';

export interface DeliveryRow {
  event: WebhookEvent;
  readonly deliveryId: string;
  readonly webhookId: string;
  /** Enqueue order: the tie-break after times. */
  readonly seq: number;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode: number | undefined;
  lastError: string | undefined;
  nextAttemptAt: number | undefined;
  deliveredAt: number | undefined;
  leaseToken: string | undefined;
  leaseUntil: number | undefined;
  /** Delivered or failed: removed after this (epoch ms); undefined while pending or kept for good. */
  expiresAt: number | undefined;
  /** Bumped at every change of when the row may be leased: an older ready-queue entry no longer counts. */
  stamp: number;
  /** Bumped each time the row becomes pending: an older oldest-pending entry no longer counts. */
  pendingSince: number;
  removed: boolean;
}

/** From when the row may be leased: its due time, or the end of a lease that holds it. */
export function availableAt(row: DeliveryRow): number {
  return Math.max(row.nextAttemptAt ?? Number.POSITIVE_INFINITY, row.leaseUntil ?? Number.NEGATIVE_INFINITY);
}

export function toDelivery(row: DeliveryRow): WebhookDelivery {
  const { event } = row;
  return {
    eventId: event.eventId,
    type: event.type,
    payload: event.payload,
    ...(event.orderId === undefined ? {} : { orderId: event.orderId }),
    ...(event.orderVersion === undefined ? {} : { orderVersion: event.orderVersion }),
    createdAt: new Date(event.createdAt),
    deliveryId: row.deliveryId,
    webhookId: row.webhookId,
    status: row.status,
    attempts: row.attempts,
    ...(row.lastStatusCode === undefined ? {} : { lastStatusCode: row.lastStatusCode }),
    ...(row.lastError === undefined ? {} : { lastError: row.lastError }),
    ...(row.nextAttemptAt === undefined ? {} : { nextAttemptAt: new Date(row.nextAttemptAt) }),
    ...(row.deliveredAt === undefined ? {} : { deliveredAt: new Date(row.deliveredAt) }),
  };
}

export function toLeased(row: DeliveryRow): LeasedDelivery {
  return { ...toDelivery(row), leaseToken: row.leaseToken!, leaseUntil: new Date(row.leaseUntil!) };
}
