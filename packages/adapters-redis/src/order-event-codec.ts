/**
 * An order event as one JSON field of a stream entry, and back. JSON turns Dates into ISO strings;
 * decoding turns them back into Dates (the event's `at`, and the placed order's dates), so what a
 * reader gets from Redis equals what the publisher appended. Entries are replayed for an hour, so
 * some were written by the version before this one: an order line written before options existed
 * is read with none.
 */
import type { Fulfilment, Order, OrderEvent, OrderLine, OrderStatus } from '@storefront/domain';
import type { OrderEventData, OrderEventType } from '@storefront/domain/adapter-kit';
import { legacyFulfilment } from '@storefront/domain/adapter-kit';

type Stored<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] };

/** Entries written before fulfilment have no money breakdown and no fulfilment. */
interface StoredOrder extends Omit<Stored<Order>, 'statusHistory' | 'items' | 'fulfilment' | 'subtotal' | 'deliveryFee' | 'tip'> {
  readonly statusHistory: readonly { readonly status: OrderStatus; readonly at: string }[];
  readonly items: readonly (Omit<OrderLine, 'options'> & { readonly options?: OrderLine['options'] })[];
  readonly subtotal?: number;
  readonly deliveryFee?: number;
  readonly tip?: number;
  readonly fulfilment?: Stored<Fulfilment>;
}

interface StoredEvent {
  readonly type: OrderEventType;
  readonly orderId: string;
  readonly customerId: string;
  readonly version: number;
  readonly status: OrderStatus;
  readonly at: string;
  readonly reason?: string;
  readonly order?: StoredOrder;
}

/** The known fields only: whatever else a caller's object carries (an id) is not stored. */
export function encodeEvent(event: OrderEventData): string {
  const { type, orderId, customerId, version, status, at, reason, order } = event;
  return JSON.stringify({ type, orderId, customerId, version, status, at, reason, order });
}

export function decodeEvent(id: string, json: string): OrderEvent {
  const { at, reason, order, ...rest } = JSON.parse(json) as StoredEvent;
  return {
    ...rest,
    id,
    at: new Date(at),
    ...(reason !== undefined && { reason }),
    ...(order !== undefined && { order: decodeOrder(order) }),
  };
}

function decodeOrder(order: StoredOrder): Order {
  const createdAt = new Date(order.createdAt);
  const fulfilment = order.fulfilment;
  return {
    ...order,
    items: order.items.map((line) => ({ ...line, options: line.options ?? [] })),
    subtotal: order.subtotal ?? order.amount,
    deliveryFee: order.deliveryFee ?? 0,
    tip: order.tip ?? 0,
    fulfilment: fulfilment === undefined ? legacyFulfilment(createdAt) : { ...fulfilment, promisedAt: new Date(fulfilment.promisedAt) },
    createdAt,
    updatedAt: new Date(order.updatedAt),
    statusHistory: order.statusHistory.map((change) => ({ status: change.status, at: new Date(change.at) })),
  };
}

/** The fields of a stream entry (`t`, time, `e`, JSON) as an event with the entry's sequence number as id. */
export function decodeEntry(streamId: string, fields: readonly string[]): OrderEvent {
  const at = fields.indexOf('e');
  const json = at >= 0 ? fields[at + 1] : undefined;
  if (json === undefined) throw new Error(`order event entry ${streamId} has no event field`);
  return decodeEvent(seqOf(streamId).toString(), json);
}

/** The sequence number of a stream entry id `<seq>-0`. */
export function seqOf(streamId: string): number {
  return Number(streamId.slice(0, streamId.indexOf('-')));
}
