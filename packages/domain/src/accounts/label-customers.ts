import type { CustomerRepository } from './customer-repository.js';
import { ERASED_CUSTOMER_LABEL } from './erase-account.js';

/**
 * Who placed some orders, for the kitchen's books (the CLI's `orders list`): each customer id's
 * email, or `deleted` when the account was erased.
 */
export class LabelCustomers {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(customerIds: Iterable<string>): Promise<Map<string, string>> {
    const ids = [...new Set(customerIds)];
    const found = await Promise.all(ids.map((id) => this.customers.findById(id)));
    return new Map(ids.map((id, i) => [id, found[i]?.email ?? ERASED_CUSTOMER_LABEL]));
  }
}
