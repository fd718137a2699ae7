/** Domain objects → the snake_case JSON of the interface. */
import type { CustomerProfile, OptionGroup, Order, OrderLineOption, Page, Product, RateLimitStatus, StoreStatus, TokenPair } from '@storefront/domain';

export function productJson(p: Product) {
  return {
    product_id: p.productId,
    name: p.name,
    description: p.description,
    category: p.category,
    price: p.price,
    currency: p.currency,
    tags: p.tags,
    available: p.available,
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

export function orderJson(o: Order) {
  return {
    order_id: o.orderId,
    amount: o.amount,
    currency: o.currency,
    items: o.items.map((line) => ({
      product_id: line.productId,
      name: line.name,
      quantity: line.quantity,
      unit_price: line.unitPrice,
      line_total: line.lineTotal,
      options: line.options.map(lineOptionJson),
    })),
    created_at: o.createdAt.toISOString(),
    status: o.status,
    updated_at: o.updatedAt.toISOString(),
    version: o.version,
    status_history: o.statusHistory.map((change) => ({ status: change.status, at: change.at.toISOString() })),
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
    time_zone: s.timeZone,
    open_now: s.openNow,
    accepting_orders: s.acceptingOrders,
    opening_hours: s.openingHours,
    next_change_at: s.nextChangeAt === null ? null : s.nextChangeAt.toISOString(),
  };
}
