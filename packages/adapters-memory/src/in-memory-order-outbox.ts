/**
 * The outbox of an InMemoryOrderRepository: its marks are written by the repository in the same
 * step as each change (so no change is stored without being due), and read and raised here.
 */
import type { OrderOutbox } from '@storefront/domain';
import type { UnpublishedOrder } from '@storefront/domain/adapter-kit';
import type { InMemoryOrderRepository } from './in-memory-order-repository.js';
import { toOrder, versionOf } from './order-row.js';

export class InMemoryOrderOutbox implements OrderOutbox {
  constructor(private readonly orders: InMemoryOrderRepository) {}

  /** Orders with changes not published yet. */
  get size(): number {
    return this.orders.outbox.size;
  }

  async listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    return this.orders.outbox.due(limit).flatMap(([orderId, publishedVersion]) => {
      const row = this.orders.locate(orderId);
      return row === undefined ? [] : [{ order: toOrder(row), publishedVersion }];
    });
  }

  async markPublished(orderId: string, version: number): Promise<void> {
    const row = this.orders.locate(orderId);
    if (row !== undefined) this.orders.outbox.mark(row.orderId, version, versionOf(row));
  }
}
