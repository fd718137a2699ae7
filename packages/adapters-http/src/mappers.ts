/** Domain objects → the snake_case JSON of the interface. */
import type { CustomerProfile, DeliveryAddress, Fulfilment, OptionGroup, Order, Page, Product, StoreStatus, TokenPair } from '@storefront/domain';
import { productTaxRate, type DeliveryZone, type TaxSettings, type OrderEventData, type OrderLineOption, type RateLimitStatus, type SlotList } from '@storefront/domain/adapter-kit';
import { paymentJson, refundJson, secretShown } from './payment-json.js';

/** A product as the menu shows it; `tax_rate` is the rate its lines are taxed at (its own, else the store's). */
export function productJson(p: Product, taxes: TaxSettings) {
  return {
    product_id: p.productId,
    name: p.name,
    description: p.description,
    category: p.category,
    price: p.price,
    currency: p.currency,
    tags: p.tags,
    available: p.available,
    tax_rate: productTaxRate(p, taxes),
    option_groups: p.optionGroups.map(optionGroupJson),
  };
}

function optionGroupJson(g: OptionGroup) {
  return {
    group_id: g.groupId,
    name: g.name,
    min: g.min,
    max: g.max,
    options: g.options.map((o) => ({ option_id: o.optionId, name: o.name, price_delta: o.priceDelta, available: o.available })),
  };
}

function lineOptionJson(o: OrderLineOption) {
  return { option_id: o.optionId, name: o.name, price_delta: o.priceDelta };
}

function addressJson(a: DeliveryAddress) {
  return {
    line1: a.line1,
    ...(a.line2 === undefined ? {} : { line2: a.line2 }),
    city: a.city,
    postal_code: a.postalCode,
    lat: a.lat,
    lng: a.lng,
    ...(a.instructions === undefined ? {} : { instructions: a.instructions }),
  };
}

function fulfilmentJson(f: Fulfilment) {
  return {
    type: f.type,
    time: f.time,
    promised_at: f.promisedAt.toISOString(),
    ...(f.address === undefined ? {} : { address: addressJson(f.address) }),
    ...(f.zone === undefined ? {} : { zone: f.zone }),
  };
}

/**
 * Who the order is rendered for: `owner`, the customer who placed it (answers to that customer's
 * own requests), who alone may be shown the payment's client secret; `shared`, anybody else and
 * anything kept or sent on (staff, streams, webhooks, the cache).
 */
export type OrderView = 'owner' | 'shared';

let lastMs = Number.NaN;
let lastIso = '';

/**
 * `at.toISOString()`, remembering the last one: an order just placed has one time three times
 * (created, updated, its history's entry), and orders rendered together often share one.
 */
function isoTime(at: Date): string {
  const ms = at.getTime();
  if (ms !== lastMs) {
    lastIso = at.toISOString();
    lastMs = ms;
  }
  return lastIso;
}

export function orderJson(o: Order, view: OrderView = 'shared') {
  return {
    order_id: o.orderId,
    subtotal: o.subtotal,
    delivery_fee: o.deliveryFee,
    tip: o.tip,
    prices_include_tax: o.pricesIncludeTax,
    taxes: o.taxes.map((t) => ({ rate: t.rate, taxable: t.taxable, tax: t.tax })),
    tax_total: o.taxTotal,
    amount: o.amount,
    currency: o.currency,
    fulfilment: fulfilmentJson(o.fulfilment),
    items: o.items.map((line) => ({
      product_id: line.productId,
      name: line.name,
      quantity: line.quantity,
      unit_price: line.unitPrice,
      line_total: line.lineTotal,
      tax_rate: line.taxRate,
      options: line.options.map(lineOptionJson),
    })),
    created_at: isoTime(o.createdAt),
    status: o.status,
    updated_at: isoTime(o.updatedAt),
    version: o.version,
    // A change of the payment alone (a refund) is a version, not a status the order entered.
    status_history: o.statusHistory.filter((change) => change.paymentChange === undefined).map((change) => ({ status: change.status, at: isoTime(change.at) })),
    payment: o.payment === undefined ? null : paymentJson(o.payment, view === 'owner' ? secretShown(o) : undefined),
    // Only once given: an order without a reason has no `reason` key (not `null`).
    ...(o.reason === undefined ? {} : { reason: o.reason }),
  };
}

export function pageMeta(page: Page<unknown>) {
  return { total: page.total, page: page.page, per_page: page.perPage, next_page: page.nextPage };
}

export function customerJson(c: CustomerProfile) {
  return { customer_id: c.customerId, email: c.email, name: c.name, created_at: c.createdAt.toISOString(), role: c.role };
}

export function tokenPairJson(pair: TokenPair) {
  return {
    access_token: pair.accessToken,
    token_type: pair.tokenType,
    expires_in: pair.expiresIn,
    refresh_token: pair.refreshToken,
  };
}

export function rateLimitJson(s: RateLimitStatus) {
  return { limit: s.limit, remaining: s.remaining, window: s.window, reset: s.reset, retry_after: s.retryAfter, scope: s.scope };
}

export function storeStatusJson(s: StoreStatus) {
  return {
    name: s.name,
    currency: s.currency,
    prices_include_tax: s.pricesIncludeTax,
    time_zone: s.timeZone,
    open_now: s.openNow,
    accepting_orders: s.acceptingOrders,
    opening_hours: s.openingHours,
    next_change_at: s.nextChangeAt === null ? null : s.nextChangeAt.toISOString(),
  };
}

export function slotListJson(list: SlotList) {
  return {
    date: list.date,
    time_zone: list.timeZone,
    slot_minutes: list.slotMinutes,
    slots: list.slots.map((slot) => ({ start: slot.start.toISOString(), end: slot.end.toISOString(), remaining: slot.remaining })),
  };
}

export function deliveryQuoteJson(zone: DeliveryZone) {
  return { zone: zone.name, fee: zone.fee, minimum_order: zone.minimumOrder };
}

/** The `data` of an `order.status` event. */
function orderStatusJson(event: OrderEventData) {
  return {
    order_id: event.orderId,
    status: event.status,
    version: event.version,
    at: event.at.toISOString(),
    ...(event.reason === undefined ? {} : { reason: event.reason }),
  };
}

/** The `data` of an `order.refunded` event: the refund asked for and the payment after it. */
function orderRefundedJson(event: OrderEventData) {
  const payment = event.order?.payment;
  const refund = payment?.refunds.find((r) => r.refundId === event.refundId);
  if (payment === undefined || refund === undefined) throw new TypeError(`order.refunded event of ${event.orderId} carries no refund ${event.refundId}`);
  return { order_id: event.orderId, version: event.version, at: event.at.toISOString(), refund: refundJson(refund), payment: paymentJson(payment) };
}

/** The `data` of an `order.payment` event (a refund settled): the payment after it. */
function orderPaymentJson(event: OrderEventData) {
  const payment = event.order?.payment;
  if (payment === undefined) throw new TypeError(`order.payment event of ${event.orderId} carries no payment`);
  return { order_id: event.orderId, version: event.version, at: event.at.toISOString(), payment: paymentJson(payment) };
}

/**
 * An order event's `data`, the same on the live streams (sse/frames.ts) and in webhooks (the app
 * passes this to createStorefront as the webhook payload's data), never with a client secret: for
 * `order.placed`, the order as GET /api/orders/{id} renders it to staff (at the version it was
 * placed); for `order.refunded`, the refund and the payment; for `order.payment`, the payment; for
 * `order.status`, the move.
 */
export function orderEventJson(event: OrderEventData): unknown {
  if (event.type === 'order.placed') {
    if (event.order === undefined) throw new TypeError(`order.placed event of ${event.orderId} carries no order`);
    return orderJson(event.order);
  }
  if (event.type === 'order.refunded') return orderRefundedJson(event);
  if (event.type === 'order.payment') return orderPaymentJson(event);
  return orderStatusJson(event);
}
