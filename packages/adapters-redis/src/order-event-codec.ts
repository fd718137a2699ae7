/**
 * An order event as one JSON field of a stream entry, and back. JSON turns Dates into ISO strings;
 * decoding turns them back into Dates (the event's `at`, and the dates of the order an
 * `order.placed` or `order.refunded` carries, its payment's included), so what a reader gets from
 * Redis equals what the publisher appended. Entries are replayed for an hour, so some were written
 * by the version before this one: an order line written before options existed is read with none.
 */
import type { Fulfilment, Order, OrderEvent, OrderLine, OrderStatus } from '@storefront/domain';
import type { OrderEventData, OrderEventType, OrderPayment, PaymentChangeNote, RefundRecord } from '@storefront/domain/adapter-kit';
import { legacyFulfilment, withFields } from '@storefront/domain/adapter-kit';

type Stored<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

interface StoredPayment extends Omit<Stored<OrderPayment>, 'refunds'> {
  readonly refunds: readonly Stored<RefundRecord>[];
}

/** Entries written before fulfilment have no money breakdown and no fulfilment; before payments, no payment. */
interface StoredOrder extends Omit<Stored<Order>, 'statusHistory' | 'items' | 'fulfilment' | 'subtotal' | 'deliveryFee' | 'tip' | 'payment'> {
  readonly statusHistory: readonly { readonly status: OrderStatus; readonly at: string; readonly paymentChange?: PaymentChangeNote }[];
  readonly items: readonly (Omit<OrderLine, 'options'> & { readonly options?: OrderLine['options'] })[];
  readonly subtotal?: number;
  readonly deliveryFee?: number;
  readonly tip?: number;
  readonly fulfilment?: Stored<Fulfilment>;
  readonly payment?: StoredPayment;
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
  readonly refundId?: string;
  readonly unpaid?: true;
}

/** The known fields only: whatever else a caller's object carries (an id) is not stored. */
export function encodeEvent(event: OrderEventData): string {
  const { type, orderId, customerId, version, status, at, reason, order, refundId, unpaid } = event;
  return JSON.stringify({ type, orderId, customerId, version, status, at, reason, order, refundId, unpaid });
}

export function decodeEvent(id: string, json: string): OrderEvent {
  const { at, reason, order, refundId, unpaid, ...rest } = JSON.parse(json) as StoredEvent;
  // withFields: every event of the log is decoded on every instance (see its note on speed).
  return withFields(rest, {
    id,
    at: new Date(at),
    ...(reason !== undefined && { reason }),
    ...(order !== undefined && { order: decodeOrder(order) }),
    ...(refundId !== undefined && { refundId }),
    ...(unpaid === true && { unpaid }),
  });
}

function decodeOrder(stored: StoredOrder): Order {
  const { payment, ...order } = stored;
  const createdAt = new Date(order.createdAt);
  const fulfilment = order.fulfilment;
  return withFields(order, {
    items: order.items.map((line) => withFields(line, { options: line.options ?? [] })),
    subtotal: order.subtotal ?? order.amount,
    deliveryFee: order.deliveryFee ?? 0,
    tip: order.tip ?? 0,
    fulfilment: fulfilment === undefined ? legacyFulfilment(createdAt) : withFields(fulfilment, { promisedAt: new Date(fulfilment.promisedAt) }),
    createdAt,
    updatedAt: new Date(order.updatedAt),
    statusHistory: order.statusHistory.map(({ status, at, paymentChange }) =>
      paymentChange === undefined ? { status, at: new Date(at) } : { status, at: new Date(at), paymentChange },
    ),
    ...(payment !== undefined && { payment: decodePayment(payment) }),
  });
}

function decodePayment(payment: StoredPayment): OrderPayment {
  return withFields(payment, {
    refunds: payment.refunds.map((refund) => withFields(refund, { createdAt: new Date(refund.createdAt) })),
    payBy: new Date(payment.payBy),
    checkAt: payment.checkAt === null ? null : new Date(payment.checkAt),
  });
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
