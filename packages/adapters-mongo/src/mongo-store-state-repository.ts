/**
 * The kitchen's pause, shared by every instance: one document (`_id: 'store'`) in the `meta`
 * collection, beside the menu's revision counter. A database that never had it set takes orders
 * (DEFAULT_STORE_STATE), so a fresh deployment and one upgraded from before store control behave
 * the same without a migration. Each instance reads it at most once a second (StoreGate).
 */
import type { StoreState, StoreStateRepository } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';
import type { Collection } from 'mongodb';
import { databaseOperation } from './database-errors.js';

export interface StoreStateDocument {
  _id: 'store';
  acceptingOrders: boolean;
  /** When it was last set: for an operator reading the database, not read back. */
  updatedAt: Date;
}

const STORE = 'store';

export class MongoStoreStateRepository implements StoreStateRepository {
  constructor(private readonly meta: Collection<StoreStateDocument>) {}

  get(): Promise<StoreState> {
    return databaseOperation(async () => {
      const document = await this.meta.findOne({ _id: STORE });
      return document === null ? { ...DEFAULT_STORE_STATE } : toStoreState(document);
    });
  }

  setAcceptingOrders(acceptingOrders: boolean): Promise<StoreState> {
    return databaseOperation(async () => {
      // An upsert on _id: the server retries the insert of two racing first writers itself.
      const document = await this.meta.findOneAndUpdate(
        { _id: STORE },
        { $set: { acceptingOrders, updatedAt: new Date() } },
        { upsert: true, returnDocument: 'after' },
      );
      return document === null ? { acceptingOrders } : toStoreState(document);
    });
  }
}

function toStoreState(document: StoreStateDocument): StoreState {
  return { acceptingOrders: document.acceptingOrders };
}
