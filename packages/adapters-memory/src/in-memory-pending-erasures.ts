/**
 * The erasure marks of an InMemoryCustomerRepository, kept in its `erasing` map: its finders skip a
 * marked account and its `delete` ends the mark, as the column does in a database.
 */
import type { PendingErasures } from '@storefront/domain';
import type { InMemoryCustomerRepository } from './in-memory-customer-repository.js';

export class InMemoryPendingErasures implements PendingErasures {
  constructor(private readonly customers: InMemoryCustomerRepository) {}

  async mark(customerId: string, at: Date): Promise<boolean> {
    if (!this.customers.has(customerId)) return false;
    if (!this.customers.erasing.has(customerId)) this.customers.erasing.set(customerId, new Date(at.getTime()));
    return true;
  }

  async list(limit: number): Promise<string[]> {
    return [...this.customers.erasing]
      .sort(([, a], [, b]) => a.getTime() - b.getTime())
      .slice(0, limit)
      .map(([customerId]) => customerId);
  }
}
