/**
 * Orders as stored: `_id` = order id (unique, which is what keeps one Idempotency-Key to one order:
 * see MongoOrderRepository). Lines are copied field by field, so that
 * neither extra properties of the caller's objects nor later edits to them reach the store.
 */
import type { Order, OrderLine } from '@storefront/domain';

export interface OrderLineDocument {
  productId: string;
  name: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

export interface OrderDocument {
  _id: string;
  customerId: string;
  items: OrderLineDocument[];
  amount: number;
  currency: string;
  createdAt: Date;
}

export function toOrderDocument(order: Order): OrderDocument {
  return {
    _id: order.orderId,
    customerId: order.customerId,
    items: order.items.map(toLine),
    amount: order.amount,
    currency: order.currency,
    createdAt: new Date(order.createdAt.getTime()),
  };
}

export function toOrder(document: OrderDocument): Order {
  return {
    orderId: document._id,
    customerId: document.customerId,
    items: document.items.map(toLine),
    amount: document.amount,
    currency: document.currency,
    createdAt: document.createdAt,
  };
}

function toLine(line: OrderLine): OrderLineDocument {
  return {
    productId: line.productId,
    name: line.name,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    lineTotal: line.lineTotal,
  };
}
