/** Erasure marks in MongoDB: `erasureRequestedAt` on the customer's document (see MongoCustomerRepository). */
import type { PendingErasures } from '@storefront/domain';
import type { Collection } from 'mongodb';
import type { CustomerDocument } from './customer-mapper.js';
import { databaseOperation } from './database-errors.js';

export class MongoPendingErasures implements PendingErasures {
  constructor(private readonly customers: Collection<CustomerDocument>) {}

  mark(customerId: string, at: Date): Promise<boolean> {
    return databaseOperation(async () => {
      // $min sets an absent field and keeps an earlier mark: one atomic update, repeatable.
      const result = await this.customers.updateOne({ _id: customerId }, { $min: { erasureRequestedAt: new Date(at.getTime()) } });
      return result.matchedCount > 0;
    });
  }

  list(limit: number): Promise<string[]> {
    return databaseOperation(async () => {
      const found = await this.customers
        .find({ erasureRequestedAt: { $exists: true } }, { projection: { _id: 1 } })
        .sort({ erasureRequestedAt: 1, _id: 1 })
        .limit(limit)
        .toArray();
      return found.map((document) => document._id);
    });
  }
}
