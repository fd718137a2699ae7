/**
 * The outbox of an InMemoryOrderRepository: its marks are written by the repository in the same
 * step as each change (so no change is stored without being due), and read and raised here.
 */
import type { OrderOutbox } from '@storefront/domain';
import type { PublishedMark, UnpublishedOrder } from '@storefront/domain/adapter-kit';
import type { InMemoryOrderRepository } from './in-memory-order-repository.js';
import { toOrder, versionOf } from './order-row.js';

export class InMemoryOrderOutbox implements OrderOutbox {
  constructor(private readonly orders: InMemoryOrderRepository) {}

  /** Orders with changes not published yet. */
  get size(): number {
    return this.orders.outbox.size;
  }

  async listUnpublished(limit: number): Promise<readonly UnpublishedOrder[]> {
    const due: UnpublishedOrder[] = [];
    for (const [orderId, publishedVersion] of this.orders.outbox.due(limit)) {
      const row = this.orders.locate(orderId);
      if (row !== undefined) due.push({ order: toOrder(row), publishedVersion });
    }
    return due;
  }

  async markPublished(orderId: string, version: number): Promise<void> {
    this.mark(orderId, version);
  }

  /** Every mark in one step (the relay's batch; one promise, not one per order). */
  async markAllPublished(marks: readonly PublishedMark[]): Promise<void> {
    for (const { orderId, version } of marks) this.mark(orderId, version);
  }

  private mark(orderId: string, version: number): void {
    const row = this.orders.locate(orderId);
    if (row !== undefined) this.orders.outbox.mark(row.orderId, version, versionOf(row));
  }
}
