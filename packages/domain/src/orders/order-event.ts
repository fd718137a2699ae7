/**
 * Order events: what the live streams carry. Every stored change of an order is one event, named by
 * the order and the version the change produced: the version that entered `placed` is `order.placed`
 * (version 1, or the one after `awaiting_payment` when payments are on), a change of the payment
 * alone is `order.refunded` (a refund asked for) or `order.payment` (a refund settled), every other
 * version an `order.status`. Events before `placed` are `unpaid`: the kitchen and outgoing webhooks
 * never see them, the owner's stream does. An order's events can therefore be derived from the stored order alone (its
 * status history holds one entry per version), which is what makes the order store its own outbox:
 * the events of versions after the order's published mark are the ones still to publish.
 */
import type { Order, OrderStatus } from './order.js';
import { placedBy } from './order-lifecycle.js';

/** The same object while it is being built. */
type Writable<T> = { -readonly [K in keyof T]: T[K] };

export type OrderEventType = 'order.placed' | 'order.status' | 'order.refunded' | 'order.payment';

/** An event as published, before the log gives it an id. */
export interface OrderEventData {
  readonly type: OrderEventType;
  readonly orderId: string;
  readonly customerId: string;
  /** The order's version after the change: events of one order are published in version order. */
  readonly version: number;
  /** The status the order entered, and when. */
  readonly status: OrderStatus;
  readonly at: Date;
  /** Why it was rejected or cancelled, when the change gave a reason. */
  readonly reason?: string;
  /** `order.placed`, `order.refunded` and `order.payment`: the order at that version. */
  readonly order?: Order;
  /** `order.refunded`: the refund asked for (one of `order.payment.refunds`). */
  readonly refundId?: string;
  /** The order was not placed yet at this version (awaiting its payment, or cancelled unpaid). */
  readonly unpaid?: true;
}

/** Whether the kitchen's screen and outgoing webhooks see the event: never before the order is paid. */
export function isKitchenEvent(event: OrderEventData): boolean {
  return event.unpaid !== true;
}

/**
 * An event in the log. `id` is a decimal integer, increasing along the log, without gaps between
 * consecutive events (an id is the log's sequence number); a client only ever echoes it back.
 */
export interface OrderEvent extends OrderEventData {
  readonly id: string;
}

/** The order as it was at `version` (1 ≤ version ≤ order.version): status, history and reason cut there. */
function orderAtVersion(order: Order, version: number): Order {
  if (version === order.version) return order;
  const history = order.statusHistory.slice(0, version);
  const last = history[history.length - 1]!;
  const { reason: _reason, ...rest } = order;
  return { ...rest, status: last.status, version, updatedAt: last.at, statusHistory: history };
}

function typeOf(order: Order, version: number): OrderEventType {
  const change = order.statusHistory[version - 1]!;
  if (change.paymentChange !== undefined) return change.paymentChange.refundId === undefined ? 'order.payment' : 'order.refunded';
  return change.status === 'placed' ? 'order.placed' : 'order.status';
}

/** The event of one version of a stored order. */
export function eventOfVersion(order: Order, version: number): OrderEventData {
  const change = order.statusHistory[version - 1];
  if (change === undefined || version < 1 || version > order.version) {
    throw new RangeError(`order ${order.orderId} has no version ${version}`);
  }
  const type = typeOf(order, version);
  // Field by field, not `{ ...base, type }`: see `withFields` (shared/objects.ts) for why.
  const event: Writable<OrderEventData> = { type, orderId: order.orderId, customerId: order.customerId, version, status: change.status, at: change.at };
  if (!placedBy(order, version)) event.unpaid = true;
  if (type === 'order.status') {
    // A reason belongs to the final move, which is always the order's last status move.
    if (order.reason !== undefined && isLastMove(order, version)) event.reason = order.reason;
    return event;
  }
  event.order = orderAtVersion(order, version);
  if (type === 'order.refunded') event.refundId = change.paymentChange!.refundId!;
  return event;
}

/** Whether `version` is the order's last status move (payment changes may follow a final move). */
function isLastMove(order: Order, version: number): boolean {
  for (let later = version; later < order.statusHistory.length; later++) {
    if (order.statusHistory[later]!.paymentChange === undefined) return false;
  }
  return true;
}

/** The events of the order's versions after `publishedVersion`, oldest first. */
export function unpublishedEvents(order: Order, publishedVersion: number): OrderEventData[] {
  const events: OrderEventData[] = [];
  for (let version = Math.max(publishedVersion, 0) + 1; version <= order.version; version++) events.push(eventOfVersion(order, version));
  return events;
}

/** The order's state at `version` as an `order.status` event with the given id: an order stream's first event. */
export function statusSnapshot(order: Order, version: number, id: string): OrderEvent {
  const event = eventOfVersion(order, version);
  const { order: _order, refundId: _refundId, ...rest } = event;
  return { ...rest, type: 'order.status', id };
}

const EVENT_ID = /^(0|[1-9][0-9]{0,14})$/;

/** Whether `value` has the shape of an event id (a decimal integer, as a client would echo it). */
export function isEventId(value: string): boolean {
  return EVENT_ID.test(value);
}

/** Compares two event ids (decimal integers without leading zeros). */
export function compareEventIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
