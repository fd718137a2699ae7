/**
 * The request half of placing an order: the client's lines checked against ORDER_LIMITS, then
 * priced from the menu (never from the client).
 */
import { DomainError } from '../errors.js';
import type { OrderLine, OrderRequestLine } from '../model/order.js';
import { ORDER_LIMITS } from '../model/order.js';
import type { Product } from '../model/product.js';
import { Issues, isIntegerIn, isRecord } from '../model/validation.js';

export function parseLines(items: readonly OrderRequestLine[]): OrderRequestLine[] {
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

export function priceLines(lines: readonly OrderRequestLine[], byId: ReadonlyMap<string, Product>): OrderLine[] {
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
