/**
 * Orders in MongoDB: one document per order (`_id` = order id), listed from the
 * (customerId, createdAt, _id) index, and Idempotency-Key claims in their own collection
 * (MongoIdempotencyKeys). An order is stored before its claim is completed, so a crash in between
 * leaves a stored order and an open claim, which the next claim after the lock expires completes
 * with that order instead of placing another.
 */
import type { ClaimResult, IdempotencyClaim, Order, OrderRepository, Page, PageRequest } from '@storefront/domain';
import { toPage } from '@storefront/domain';
import type { Collection } from 'mongodb';
import { INDEXES } from './collections.js';
import type { MongoIdempotencyKeys } from './mongo-idempotency-keys.js';
import { toOrder, toOrderDocument, type OrderDocument } from './order-mapper.js';
import { countCustomerOrders, findCustomerOrders } from './order-queries.js';
import { isDuplicateKey, storeOperation } from './store-errors.js';

/** A stale key binding is released at most this often before the insert gives up. */
const MAX_INSERT_ATTEMPTS = 3;

export class MongoOrderRepository implements OrderRepository {
  constructor(
    private readonly orders: Collection<OrderDocument>,
    private readonly keys: MongoIdempotencyKeys,
  ) {}

  claimIdempotencyKey(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    return storeOperation(() => this.keys.claim(claim, now));
  }

  releaseIdempotencyKey(customerId: string, key: string): Promise<void> {
    return storeOperation(() => this.keys.release(customerId, key));
  }

  insert(order: Order, idempotencyKey?: string): Promise<void> {
    return storeOperation(async () => {
      await this.store(order, idempotencyKey);
      if (idempotencyKey !== undefined) await this.keys.complete(order.customerId, idempotencyKey, order.orderId);
    });
  }

  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>> {
    return storeOperation(async () => {
      const [documents, total] = await Promise.all([
        findCustomerOrders(this.orders, customerId, page).toArray(),
        countCustomerOrders(this.orders, customerId),
      ]);
      return toPage(documents.map(toOrder), total, page);
    });
  }

  private async store(order: Order, idempotencyKey: string | undefined): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.orders.insertOne(toOrderDocument(order, idempotencyKey));
        return;
      } catch (error) {
        // The same order again (a retried write): it is stored once, and that is all insert promises.
        if (isDuplicateKey(error, '_id_')) return;
        const keyTaken = idempotencyKey !== undefined && isDuplicateKey(error, INDEXES.orderIdempotencyKey);
        if (!keyTaken || attempt >= MAX_INSERT_ATTEMPTS) throw error;
        // Throws when another order of this claim holds the key; returns when the key is free again.
        await this.keys.resolveOrderConflict(order.customerId, idempotencyKey);
      }
    }
  }
}
