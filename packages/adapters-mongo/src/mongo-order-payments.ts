/**
 * Orders found by their payment on MongoDB (the orders collection, its two payment indexes in
 * collections.ts). A check is taken by one findOneAndUpdate per order: filtered on its `checkAt`
 * being due, earliest first, moved to the lease in the same write. The server re-reads a document
 * that a concurrent write changed before updating it and takes it only if it still matches, so a
 * due order that another caller moved to its lease is not taken twice. The lease is no change of
 * the order: no version, no history entry, no outbox mark.
 */
import type { Order } from '@storefront/domain';
import type { OrderPayments } from '@storefront/domain/adapter-kit';
import type { Collection, Filter, Sort } from 'mongodb';
import { databaseOperation } from './database-errors.js';
import { toOrder, type OrderDocument } from './order-mapper.js';

/**
 * The orders whose payment is the intent `intentId`. The unique index's partial filter is part of
 * it, as written, so that the planner can use that index.
 */
export function intentFilter(intentId: string): Filter<OrderDocument> {
  return { 'payment.intentId': { $type: 'string', $eq: intentId } };
}

/** The orders due a check at `now` (the checks index's partial filter, as written, and the bound). */
export function dueCheckFilter(now: Date): Filter<OrderDocument> {
  return { 'payment.checkAt': { $type: 'date', $lte: new Date(now.getTime()) } };
}

/** Earliest first, as the checks index holds them. */
export const CHECK_ORDER: Sort = { 'payment.checkAt': 1, _id: 1 };

export class MongoOrderPayments implements OrderPayments {
  constructor(private readonly orders: Collection<OrderDocument>) {}

  findByIntent(intentId: string): Promise<Order | null> {
    return databaseOperation(async () => {
      const document = await this.orders.findOne(intentFilter(intentId));
      return document === null ? null : toOrder(document);
    });
  }

  /** Rejects a lease that is not after `now` with a RangeError: it would leave the orders due, for every caller. */
  claimChecks(now: Date, leaseUntil: Date, limit: number): Promise<readonly Order[]> {
    if (!(leaseUntil.getTime() > now.getTime())) {
      return Promise.reject(new RangeError(`a check's lease must end after now (${now.toISOString()}), not at ${leaseUntil.toISOString()}`));
    }
    const bound = Math.floor(limit);
    return databaseOperation(async () => {
      const claimed: Order[] = [];
      while (claimed.length < bound) {
        const document = await this.orders.findOneAndUpdate(
          dueCheckFilter(now),
          { $set: { 'payment.checkAt': new Date(leaseUntil.getTime()) } },
          { sort: CHECK_ORDER, returnDocument: 'after' },
        );
        if (document === null) break;
        claimed.push(toOrder(document));
      }
      return claimed;
    });
  }
}
