import type { Order } from './order.js';
import { visibleOrder, type Viewer } from './order-access.js';
import type { OrderRepository } from './order-repository.js';

/** `GET /api/orders/{order_id}`. */
export class GetOrder {
  constructor(private readonly orders: OrderRepository) {}

  execute(input: { readonly viewer: Viewer; readonly orderId: string }): Promise<Order> {
    return visibleOrder(this.orders, input.viewer, input.orderId);
  }
}
