/**
 * Orders as stored: `_id` = order id (unique: what keeps one Idempotency-Key to one order), lines
 * copied field by field so that neither extra properties of the caller's objects nor later edits
 * reach the store. The outbox fields are the store's bookkeeping, never read into an Order; amounts
 * are BSON int64 (money.ts), tax rates int32. Older documents lack newer fields and are read with
 * their defaults: no status is a placed order (collections.ts writes that state once), no chosen
 * options is none, no taxes is untaxed (lines at 0, prices not including tax, [], 0), no payment
 * is an order without a card payment (no `payment` key).
 */
import type { DeliveryAddress, Fulfilment, Order, OrderLine, OrderStatus } from '@storefront/domain';
import type { FulfilmentType, OrderLineOption, StatusChange } from '@storefront/domain/adapter-kit';
import { copyDeliveryAddress, placedState } from '@storefront/domain/adapter-kit';
import { fromStoredMoney, toStoredMoney, type StoredMoney } from './money.js';
import { copyPaymentChange, toOrderPayment, toPaymentDocument, type PaymentChangeDocument, type PaymentDocument } from './payment-mapper.js';

/** How and when, as stored; `promisedAt` sits at the top of the document, where the kitchen's index reads it. */
export interface FulfilmentDocument {
  type: FulfilmentType;
  time: string;
  /** Removed when the customer's account is erased. */
  address?: DeliveryAddress;
  zone?: string;
}

export interface OrderLineOptionDocument {
  optionId: string;
  name: string;
  priceDelta: StoredMoney;
}

export interface OrderLineDocument {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: StoredMoney;
  lineTotal: StoredMoney;
  /** Absent when no option was chosen. */
  options?: OrderLineOptionDocument[];
  /** Absent on lines stored before taxes (read as 0). */
  taxRate?: number;
}

export interface TaxLineDocument {
  rate: number;
  taxable: StoredMoney;
  tax: StoredMoney;
}

const NO_OPTIONS: readonly OrderLineOption[] = Object.freeze([]);

export interface StatusChangeDocument {
  status: OrderStatus;
  at: Date;
  /** Only on an entry of a payment-only change (the status stayed). */
  paymentChange?: PaymentChangeDocument;
}

export interface OrderDocument {
  _id: string;
  customerId: string;
  items: OrderLineDocument[];
  amount: StoredMoney;
  currency: string;
  createdAt: Date;
  // Optional only for documents written before the lifecycle; every write since sets them.
  status?: OrderStatus;
  version?: number;
  updatedAt?: Date;
  statusHistory?: StatusChangeDocument[];
  reason?: string;
  /**
   * Absent on orders stored before fulfilment: they read as pickup, subtotal = amount, promised at
   * createdAt (`upgradeOrders` writes `promisedAt` into them for the kitchen's index).
   */
  subtotal?: StoredMoney;
  deliveryFee?: StoredMoney;
  tip?: StoredMoney;
  promisedAt?: Date;
  fulfilment?: FulfilmentDocument;
  /** The three absent on orders stored before taxes: read as false, [], 0. */
  pricesIncludeTax?: boolean;
  taxes?: TaxLineDocument[];
  taxTotal?: StoredMoney;
  /** The card payment (payment-mapper.ts); absent on an order paid on pickup or delivery, and on every order stored before payments. */
  payment?: PaymentDocument;
  /**
   * The outbox: the newest version whose event is published, and `true` while a newer version is
   * not (the partial index orders_outbox holds exactly these orders). Both absent on orders stored
   * before events: their changes predate the events and are never published.
   */
  publishedVersion?: number;
  eventsPending?: true;
}

export function toOrderDocument(order: Order): OrderDocument {
  const document: OrderDocument = {
    _id: order.orderId,
    customerId: order.customerId,
    items: order.items.map(toLine),
    amount: toStoredMoney(order.amount),
    currency: order.currency,
    createdAt: copyDate(order.createdAt),
    status: order.status,
    version: order.version,
    updatedAt: copyDate(order.updatedAt),
    statusHistory: order.statusHistory.map(toStatusChange),
    subtotal: toStoredMoney(order.subtotal),
    deliveryFee: toStoredMoney(order.deliveryFee),
    tip: toStoredMoney(order.tip),
    promisedAt: copyDate(order.fulfilment.promisedAt),
    fulfilment: toFulfilmentDocument(order.fulfilment),
    pricesIncludeTax: order.pricesIncludeTax,
    taxes: order.taxes.map((line) => ({ rate: line.rate, taxable: toStoredMoney(line.taxable), tax: toStoredMoney(line.tax) })),
    taxTotal: toStoredMoney(order.taxTotal),
  };
  if (order.reason !== undefined) document.reason = order.reason;
  if (order.payment !== undefined) document.payment = toPaymentDocument(order.payment);
  return document;
}

/** A new order as inserted: none of its versions published yet, so it is in the outbox from its first write. */
export function toInsertedOrderDocument(order: Order): OrderDocument {
  return { ...toOrderDocument(order), publishedVersion: 0, eventsPending: true };
}

export function toOrder(document: OrderDocument): Order {
  const placed = placedState(document.createdAt);
  const order: Order = {
    orderId: document._id,
    customerId: document.customerId,
    items: document.items.map(fromLineDocument),
    amount: fromStoredMoney(document.amount),
    currency: document.currency,
    createdAt: document.createdAt,
    status: document.status ?? placed.status,
    version: document.version ?? placed.version,
    updatedAt: document.updatedAt ?? placed.updatedAt,
    statusHistory: (document.statusHistory ?? placed.statusHistory).map(toStatusChange),
    subtotal: fromStoredMoney(document.subtotal ?? document.amount),
    deliveryFee: document.deliveryFee === undefined ? 0 : fromStoredMoney(document.deliveryFee),
    tip: document.tip === undefined ? 0 : fromStoredMoney(document.tip),
    fulfilment: fromFulfilmentDocument(document),
    pricesIncludeTax: document.pricesIncludeTax ?? false,
    taxes: (document.taxes ?? []).map((line) => ({ rate: line.rate, taxable: fromStoredMoney(line.taxable), tax: fromStoredMoney(line.tax) })),
    taxTotal: document.taxTotal === undefined ? 0 : fromStoredMoney(document.taxTotal),
  };
  return {
    ...order,
    ...(document.reason === undefined ? {} : { reason: document.reason }),
    ...(document.payment === undefined ? {} : { payment: toOrderPayment(document.payment) }),
  };
}

/** A history entry both ways; given a move, the entry it appends (also what `$push` writes). */
export function toStatusChange(change: StatusChange | StatusChangeDocument): StatusChangeDocument {
  const entry: StatusChangeDocument = { status: change.status, at: copyDate(change.at) };
  if (change.paymentChange !== undefined) entry.paymentChange = copyPaymentChange(change.paymentChange);
  return entry;
}

function toFulfilmentDocument(fulfilment: Fulfilment): FulfilmentDocument {
  const document: FulfilmentDocument = { type: fulfilment.type, time: fulfilment.time };
  if (fulfilment.address !== undefined) document.address = copyDeliveryAddress(fulfilment.address);
  if (fulfilment.zone !== undefined) document.zone = fulfilment.zone;
  return document;
}

function fromFulfilmentDocument(document: OrderDocument): Fulfilment {
  const stored = document.fulfilment ?? { type: 'pickup', time: 'asap' };
  const fulfilment: Fulfilment = { type: stored.type, time: stored.time, promisedAt: document.promisedAt ?? document.createdAt };
  return {
    ...fulfilment,
    ...(stored.address === undefined ? {} : { address: copyDeliveryAddress(stored.address) }),
    ...(stored.zone === undefined ? {} : { zone: stored.zone }),
  };
}


function toLine(line: OrderLine): OrderLineDocument {
  const document: OrderLineDocument = {
    productId: line.productId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: toStoredMoney(line.unitPrice),
    lineTotal: toStoredMoney(line.lineTotal),
    taxRate: line.taxRate,
  };
  if (line.options.length > 0) document.options = line.options.map(toOptionDocument);
  return document;
}

function fromLineDocument(document: OrderLineDocument): OrderLine {
  return {
    productId: document.productId,
    name: document.name,
    quantity: document.quantity,
    unitPrice: fromStoredMoney(document.unitPrice),
    lineTotal: fromStoredMoney(document.lineTotal),
    options: document.options === undefined || document.options.length === 0 ? NO_OPTIONS : document.options.map(fromOptionDocument),
    taxRate: document.taxRate ?? 0,
  };
}

function toOptionDocument(option: OrderLineOption): OrderLineOptionDocument {
  return { optionId: option.optionId, name: option.name, priceDelta: toStoredMoney(option.priceDelta) };
}

function fromOptionDocument(document: OrderLineOptionDocument): OrderLineOption {
  return { optionId: document.optionId, name: document.name, priceDelta: fromStoredMoney(document.priceDelta) };
}

function copyDate(date: Date): Date {
  return new Date(date.getTime());
}
