/**
 * Processed provider events on MongoDB (collection provider_events). The unique index on
 * (provider, eventId) makes the first claim atomic: of concurrent inserts one succeeds, the others
 * get E11000. A repeat then tries one conditional update that takes an unfinished claim whose
 * lease has passed; the server applies it to one document at a time, so one re-claimer wins.
 */
import { PROVIDER_EVENT_LEASE_MS, type ProviderEvents } from '@storefront/domain/adapter-kit';
import type { Collection, ObjectId } from 'mongodb';
import { INDEXES } from './collections.js';
import { databaseOperation, isDuplicateKey } from './database-errors.js';

export interface ProviderEventDocument {
  _id?: ObjectId;
  provider: string;
  eventId: string;
  receivedAt: Date;
  leaseUntil: Date;
  /** null until the event has taken effect. */
  completedAt: Date | null;
}

export class MongoProviderEvents implements ProviderEvents {
  constructor(private readonly events: Collection<ProviderEventDocument>) {}

  claim(provider: string, eventId: string, receivedAt: Date): Promise<boolean> {
    const leaseUntil = new Date(receivedAt.getTime() + PROVIDER_EVENT_LEASE_MS);
    return databaseOperation(async () => {
      try {
        await this.events.insertOne({ provider, eventId, receivedAt, leaseUntil, completedAt: null });
        return true;
      } catch (error) {
        if (!isDuplicateKey(error, INDEXES.providerEventOnce)) throw error;
      }
      const retaken = await this.events.updateOne({ provider, eventId, completedAt: null, leaseUntil: { $lte: receivedAt } }, { $set: { leaseUntil } });
      return retaken.modifiedCount === 1;
    });
  }

  complete(provider: string, eventId: string, completedAt: Date): Promise<void> {
    return databaseOperation(async () => {
      const done = await this.events.updateOne({ provider, eventId, completedAt: null }, { $set: { completedAt } });
      if (done.matchedCount === 1) return;
      // Released or removed meanwhile (record it done), or completed already (E11000: nothing to do).
      try {
        await this.events.insertOne({ provider, eventId, receivedAt: completedAt, leaseUntil: completedAt, completedAt });
      } catch (error) {
        if (!isDuplicateKey(error, INDEXES.providerEventOnce)) throw error;
      }
    });
  }

  release(provider: string, eventId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.events.deleteOne({ provider, eventId, completedAt: null });
    });
  }

  isCompleted(provider: string, eventId: string): Promise<boolean> {
    return databaseOperation(async () => (await this.events.findOne({ provider, eventId, completedAt: { $ne: null } }, { projection: { _id: 1 } })) !== null);
  }

  removeBefore(before: Date, limit: number): Promise<number> {
    const old = { completedAt: { $lt: before } };
    const bound = Math.floor(limit);
    return databaseOperation(async () => {
      if (!(bound >= 1)) return 0;
      const batch = await this.events.find(old, { projection: { _id: 1 }, sort: { completedAt: 1 }, limit: bound, hint: INDEXES.providerEventsCompleted }).toArray();
      if (batch.length === 0) return 0;
      const result = await this.events.deleteMany({ _id: { $in: batch.map((event) => event._id!) }, ...old });
      return result.deletedCount;
    });
  }
}
