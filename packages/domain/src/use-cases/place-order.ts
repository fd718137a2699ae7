import { DomainError, validationFailed } from '../errors.js';
import { OrderStamper, sha256Hex } from '../ids.js';
import type { Order, OrderLine, OrderRequestLine } from '../model/order.js';
import { ORDER_LIMITS } from '../model/order.js';
import type { Product } from '../model/product.js';
import { Issues, isIntegerIn, isRecord } from '../model/validation.js';
import type { MenuRepository } from '../ports/menu-repository.js';
import type { OrderRepository } from '../ports/order-repository.js';
import type { Clock } from '../ports/security.js';

/** An order as a customer asks for it: product ids and quantities, never prices. */
export interface PlaceOrderInput {
  readonly customerId: string;
  /** Validated here: 1–50 lines, a product id, a quantity that is an integer from 1 to 99. */
  readonly items: readonly OrderRequestLine[];
  readonly idempotencyKey?: string | undefined;
}

/** The order placed (or replayed for a repeated Idempotency-Key). */
export interface PlaceOrderResult {
  readonly order: Order;
  /** True when an earlier request with the same Idempotency-Key placed this order. */
  readonly replayed: boolean;
}

/** Idempotency-record lifetimes. */
export interface PlaceOrderOptions {
  /** How long an idempotency record (and its replay) is kept. Default 24 h. */
  readonly idempotencyTtlSeconds?: number;
  /** After this, a claim left by a crashed request may be taken over. Default 60 s. */
  readonly idempotencyLockSeconds?: number;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Prices an order from the menu (never from the client) and stores it exactly once per key. */
export class PlaceOrder {
  private readonly stamper = new OrderStamper();
  private readonly ttlMs: number;
  private readonly lockMs: number;

  constructor(
    private readonly menu: MenuRepository,
    private readonly orders: OrderRepository,
    private readonly clock: Clock,
    options: PlaceOrderOptions = {},
  ) {
    this.ttlMs = (options.idempotencyTtlSeconds ?? 24 * 3600) * 1000;
    this.lockMs = (options.idempotencyLockSeconds ?? 60) * 1000;
  }

  async execute(input: PlaceOrderInput): Promise<PlaceOrderResult> {
    const key = input.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw validationFailed([{ path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    const lines = parseLines(input.items);
    if (key === undefined) return { order: await this.place(input.customerId, lines), replayed: false };

    const fingerprint = await sha256Hex(JSON.stringify(lines.map((l) => [l.productId, l.quantity])));
    const now = this.clock.now();
    const claim = await this.orders.claimIdempotencyKey(
      {
        customerId: input.customerId,
        key,
        fingerprint,
        lockExpiresAt: new Date(now.getTime() + this.lockMs),
        expiresAt: new Date(now.getTime() + this.ttlMs),
      },
      now,
    );
    if (claim.kind !== 'claimed' && claim.fingerprint !== fingerprint) {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
    }
    if (claim.kind === 'in_progress') {
      throw new DomainError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed; retry later.');
    }
    if (claim.kind === 'completed') return { order: claim.order, replayed: true };

    try {
      return { order: await this.place(input.customerId, lines, key), replayed: false };
    } catch (error) {
      await this.orders.releaseIdempotencyKey(input.customerId, key).catch(() => undefined);
      throw error;
    }
  }

  private async place(customerId: string, lines: readonly OrderRequestLine[], key?: string): Promise<Order> {
    const products = await this.menu.findByIds([...new Set(lines.map((l) => l.productId))]);
    const byId = new Map(products.map((p) => [p.productId, p]));
    const items = priceLines(lines, byId);
    const { orderId, createdAt } = this.stamper.next(this.clock.now());
    const order: Order = {
      orderId,
      customerId,
      items,
      amount: items.reduce((sum, line) => sum + line.lineTotal, 0),
      currency: byId.get(items[0]!.productId)!.currency,
      createdAt,
    };
    await this.orders.insert(order, key);
    return order;
  }
}

function parseLines(items: readonly OrderRequestLine[]): OrderRequestLine[] {
  const issues = new Issues();
  if (!Array.isArray(items) || items.length < ORDER_LIMITS.minLines || items.length > ORDER_LIMITS.maxLines) {
    issues.add('items', `must be a list of ${ORDER_LIMITS.minLines} to ${ORDER_LIMITS.maxLines} lines`);
    issues.throwIfAny();
  }
  items.forEach((item: unknown, i) => {
    if (!isRecord(item)) return issues.add(`items.${i}`, 'must be an object with product_id and quantity');
    const { productId, quantity } = item;
    if (typeof productId !== 'string' || productId.length === 0 || productId.length > 64) {
      issues.add(`items.${i}.product_id`, 'must be a product id string of 1 to 64 characters');
    }
    if (!isIntegerIn(quantity, ORDER_LIMITS.minQuantity, ORDER_LIMITS.maxQuantity)) {
      issues.add(`items.${i}.quantity`, `must be an integer from ${ORDER_LIMITS.minQuantity} to ${ORDER_LIMITS.maxQuantity}`);
    }
  });
  issues.throwIfAny();
  return items.map(({ productId, quantity }) => ({ productId, quantity }));
}

function priceLines(lines: readonly OrderRequestLine[], byId: ReadonlyMap<string, Product>): OrderLine[] {
  const unknown = new Issues();
  const unavailable = new Issues();
  lines.forEach((line, i) => {
    const product = byId.get(line.productId);
    if (product === undefined) unknown.add(`items.${i}.product_id`, `no product ${line.productId} on the menu`);
    else if (!product.available) unavailable.add(`items.${i}.product_id`, `${product.name} is not available right now`);
  });
  if (unknown.list.length > 0) {
    throw new DomainError('unknown_product', 'The order names a product that is not on the menu.', { details: unknown.list });
  }
  if (unavailable.list.length > 0) {
    throw new DomainError('product_unavailable', 'The order names a product that is not available.', { details: unavailable.list });
  }
  return lines.map((line) => {
    const product = byId.get(line.productId)!;
    return {
      productId: product.productId,
      name: product.name,
      quantity: line.quantity,
      unitPrice: product.price,
      lineTotal: product.price * line.quantity,
    };
  });
}
