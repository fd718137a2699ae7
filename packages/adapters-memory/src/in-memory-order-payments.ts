/**
 * The payments port of an InMemoryOrderRepository: its payment index is written by the repository
 * in the same step as each change, and read here. A claim takes its due orders and leases them
 * without awaiting, so of concurrent claims each due order goes to one.
 */
import type { Order } from '@storefront/domain';
import type { OrderPayments } from '@storefront/domain/adapter-kit';
import type { InMemoryOrderRepository } from './in-memory-order-repository.js';
import { toOrder } from './order-row.js';

export class InMemoryOrderPayments implements OrderPayments {
  constructor(private readonly orders: InMemoryOrderRepository) {}

  async findByIntent(intentId: string): Promise<Order | null> {
    const orderId = this.orders.payments.orderOf(intentId);
    const row = orderId === undefined ? undefined : this.orders.locate(orderId);
    return row === undefined ? null : toOrder(row);
  }

  async claimChecks(now: Date, leaseUntil: Date, limit: number): Promise<readonly Order[]> {
    const max = Math.floor(limit);
    if (!(max >= 1)) return [];
    const untilMs = leaseUntil.getTime();
    return this.orders.payments.takeDue(now.getTime(), max).flatMap((orderId) => this.orders.leaseCheck(orderId, untilMs) ?? []);
  }
}
