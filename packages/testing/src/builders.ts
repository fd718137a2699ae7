/**
 * Test-data builders: a valid object with unique ids, names and emails, so tests against a shared
 * store (a Mongo database reused across tests) never collide; override only what the test is about.
 */
import type { Customer, Order, OrderLine, OrderStatus, Product } from '@storefront/domain';
import type { IdempotencyClaim, ProductDraft, Session } from '@storefront/domain/adapter-kit';
import { applyOrderMove, findMove, newId, OrderStamper, pathFromPlaced, placedState, planMove } from '@storefront/domain/adapter-kit';

const DAY_MS = 24 * 3600 * 1000;

/** A short random lower-case suffix. */
export function uniqueSuffix(): string {
  return newId('prd').slice(4, 14);
}

export function randomHex(bytes = 32): string {
  const values = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function aProductDraft(overrides: Partial<ProductDraft> = {}): ProductDraft {
  return {
    name: `Test dish ${uniqueSuffix()}`,
    description: 'A dish made for tests.',
    category: 'Mains',
    price: 1250,
    currency: 'USD',
    tags: ['test'],
    available: true,
    optionGroups: [],
    ...overrides,
  };
}

/** A pizza as the demo menu has them: a required Size (Regular +0, Large +400) and up to 3 of 4 toppings (+150 each, Olives unavailable). */
export function aPizzaDraft(overrides: Partial<ProductDraft> = {}): ProductDraft {
  const topping = (name: string, available = true) => ({ name, priceDelta: 150, available });
  return aProductDraft({
    name: `Test pizza ${uniqueSuffix()}`,
    category: 'Pizza',
    price: 1290,
    optionGroups: [
      { name: 'Size', min: 1, max: 1, options: [{ name: 'Regular', priceDelta: 0, available: true }, { name: 'Large', priceDelta: 400, available: true }] },
      { name: 'Extra toppings', min: 0, max: 3, options: [topping('Extra cheese'), topping('Mushrooms'), topping('Olives', false), topping('Pepperoni')] },
    ],
    ...overrides,
  });
}

/** A product without options (override `optionGroups` with groups that have ids). */
export function aProduct(overrides: Partial<Product> = {}): Product {
  const { optionGroups: _drafts, ...draft } = aProductDraft();
  return { productId: newId('prd'), ...draft, optionGroups: [], ...overrides };
}

export function anOrderLine(overrides: Partial<OrderLine> = {}): OrderLine {
  const quantity = overrides.quantity ?? 2;
  const unitPrice = overrides.unitPrice ?? 1250;
  return {
    productId: newId('prd'),
    name: 'Test dish',
    quantity,
    unitPrice,
    lineTotal: quantity * unitPrice,
    options: [],
    taxRate: 0,
    ...overrides,
  };
}

/**
 * `amount` follows the items unless given; the id is stamped from `createdAt` as the domain stamps
 * it (stores may rely on an order id carrying its creation time).
 */
export function anOrder(overrides: Partial<Order> = {}): Order {
  const items = overrides.items ?? [anOrderLine()];
  // A fresh stamper keeps `createdAt` exactly as given (one stamper never goes back in time).
  const { orderId, createdAt } = new OrderStamper().next(overrides.createdAt ?? new Date());
  const subtotal = overrides.subtotal ?? overrides.amount ?? items.reduce((sum, line) => sum + line.lineTotal, 0);
  return {
    orderId,
    customerId: newId('cus'),
    items,
    subtotal,
    deliveryFee: 0,
    tip: 0,
    amount: subtotal,
    pricesIncludeTax: false,
    taxes: [],
    taxTotal: 0,
    currency: 'USD',
    ...placedState(createdAt),
    fulfilment: { type: 'pickup', time: 'asap', promisedAt: createdAt },
    ...overrides,
    createdAt,
  } as Order;
}

/**
 * A delivery order taxed at two rates (DECISIONS "Taxes"): 2 × 12.50 at 7 %, 8.90 with an option at
 * 19 %, a 2.50 fee at 19 % and a 2.00 tip (untaxed); the tax added on top, or included in the prices.
 */
export function aTaxedOrder(pricesIncludeTax = false, overrides: Partial<Order> = {}): Order {
  const option = { optionId: newId('prd').replace('prd_', 'opt_'), name: 'Ice', priceDelta: 0 };
  const items = [anOrderLine({ quantity: 2, unitPrice: 1250, taxRate: 700 }), anOrderLine({ name: 'Lemonade', quantity: 1, unitPrice: 890, taxRate: 1900, options: [option] })];
  const createdAt = overrides.createdAt ?? new Date(Date.UTC(2030, 0, 16, 12, 0, 0));
  // 7 %: 2500 taxable; 19 %: 890 + 250 = 1140 taxable.
  const taxes = pricesIncludeTax
    ? [{ rate: 700, taxable: 2500, tax: 164 }, { rate: 1900, taxable: 1140, tax: 182 }]
    : [{ rate: 700, taxable: 2500, tax: 175 }, { rate: 1900, taxable: 1140, tax: 217 }];
  const taxTotal = taxes.reduce((sum, line) => sum + line.tax, 0);
  return anOrder({
    createdAt,
    items,
    subtotal: 3390,
    deliveryFee: 250,
    tip: 200,
    amount: 3390 + 250 + 200 + (pricesIncludeTax ? 0 : taxTotal),
    pricesIncludeTax,
    taxes,
    taxTotal,
    fulfilment: { type: 'delivery', time: 'asap', promisedAt: new Date(createdAt.getTime() + 40 * 60_000), address: { line1: 'Karl-Liebknecht-Str. 8', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132 }, zone: 'Centre' },
    ...overrides,
  });
}

/**
 * An order moved to `status` by the domain's own rules, one minute per move after its creation:
 * its version and history are what a store would hold. A rejection, and a cancellation given
 * `reason`, are the kitchen's (with that reason, or a default); a cancellation without one is the owner's.
 */
export function anOrderAt(status: OrderStatus, overrides: Partial<Pick<Order, 'orderId' | 'customerId' | 'items' | 'createdAt' | 'reason' | 'fulfilment'>> = {}): Order {
  const { reason, ...rest } = overrides;
  let order = anOrder(rest);
  for (const [i, to] of pathFromPlaced(status).entries()) {
    const by = to !== 'cancelled' || reason !== undefined ? 'staff' : 'owner';
    const needsReason = findMove(order.status, to, by)?.needsReason === true;
    const at = new Date(order.createdAt.getTime() + (i + 1) * 60_000);
    order = applyOrderMove(order, planMove(order, { to, by, reason: needsReason ? (reason ?? 'A reason for tests') : undefined }, at));
  }
  return order;
}

export function aCustomer(overrides: Partial<Customer> = {}): Customer {
  return {
    customerId: newId('cus'),
    email: `customer-${uniqueSuffix()}@example.com`,
    name: 'Test Customer',
    passwordHash: `hash-${randomHex(8)}`,
    disabled: false,
    createdAt: new Date(),
    role: 'customer',
    ...overrides,
  };
}

export function aSession(overrides: Partial<Session> = {}): Session {
  const now = Date.now();
  return {
    sessionId: newId('ses'),
    customerId: newId('cus'),
    refreshTokenHash: randomHex(),
    previousTokenHashes: [],
    createdAt: new Date(now),
    expiresAt: new Date(now + 30 * DAY_MS),
    revokedAt: null,
    ...overrides,
  };
}

/** A claim on a fresh key by a new holder, reserving a new order, locked for 60 s and kept for 24 h from `now`. */
export function anIdempotencyClaim(overrides: Partial<IdempotencyClaim> = {}, now = new Date()): IdempotencyClaim {
  const reserved = new OrderStamper().next(now);
  return {
    customerId: newId('cus'),
    key: `key-${uniqueSuffix()}`,
    fingerprint: randomHex(),
    owner: randomHex(10),
    orderId: reserved.orderId,
    orderCreatedAt: reserved.createdAt,
    lockExpiresAt: new Date(now.getTime() + 60_000),
    expiresAt: new Date(now.getTime() + DAY_MS),
    ...overrides,
  };
}
