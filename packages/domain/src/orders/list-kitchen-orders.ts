import type { Order } from './order.js';
import { parseStatusFilter } from './order-lifecycle.js';
import type { Page } from '../shared/page.js';
import { Issues } from '../shared/validation.js';
import type { OrderRepository } from './order-repository.js';
import type { PageInput } from '../shared/paging.js';
import { resolvePage } from '../shared/paging.js';

export interface ListKitchenOrdersInput extends PageInput {
  /** Comma-separated statuses (`placed,accepted`); unset → the open ones. */
  readonly status?: string | undefined;
}

/**
 * The kitchen's queue: every customer's orders in the asked statuses, oldest first, paged as a
 * customer's own list is (the oldest order waiting is the next to cook).
 */
export class ListKitchenOrders {
  constructor(private readonly orders: OrderRepository) {}

  async execute(input: ListKitchenOrdersInput): Promise<Page<Order>> {
    const issues = new Issues();
    const statuses = parseStatusFilter(input.status, issues);
    const page = resolvePage(input, issues);
    issues.throwIfAny();
    return this.orders.listByStatus(statuses, page);
  }
}
