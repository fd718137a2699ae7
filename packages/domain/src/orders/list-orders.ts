import type { Order } from './order.js';
import type { Page } from '../shared/page.js';
import { Issues } from '../shared/validation.js';
import type { OrderRepository } from './order-repository.js';
import type { PageInput } from '../shared/paging.js';
import { resolvePage } from '../shared/paging.js';

/** Whose orders, and which page. */
export interface ListOrdersInput extends PageInput {
  readonly customerId: string;
}

/**
 * One page of the caller's orders, oldest first (created_at, then order_id): new orders land at
 * the end, so a client following next_page never skips or repeats a row while orders arrive.
 */
export class ListOrders {
  constructor(private readonly orders: OrderRepository) {}

  execute(input: ListOrdersInput): Promise<Page<Order>> {
    const issues = new Issues();
    const page = resolvePage(input, issues);
    issues.throwIfAny();
    return this.orders.listByCustomer(input.customerId, page);
  }
}
