/**
 * Places taken per slot on MongoDB: one document per slot, `{_id: slot start, count, holders}`.
 * Taking a place is one conditional update, `findOneAndUpdate({_id, holders: {$ne: id}, count:
 * {$lt: k}}, {$inc, $push}, {upsert: true})`: a single document's update is atomic, so of N
 * concurrent takers of a slot with k places exactly k match (each match raises `count` for the next).
 *
 * The upsert creates the slot's document when it has none yet. When the document exists and the
 * filter does not match (the slot is full, or the order holds a place already), the upsert tries an
 * insert with the same `_id` and fails with E11000: the server retries an upsert on a duplicate key
 * only when its filter is equalities on the unique index alone, which this one is not. Then the
 * document exists, and a second update without upsert (or a look at `holders`) gives the answer.
 */
import type { SlotPlaces } from '@storefront/domain';
import type { Collection } from 'mongodb';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export interface SlotPlacesDocument {
  /** The slot's start. */
  _id: Date;
  count: number;
  /** The orders holding a place: a retried take is found here and takes no second one. */
  holders: string[];
}

export class MongoSlotPlaces implements SlotPlaces {
  constructor(private readonly slots: Collection<SlotPlacesDocument>) {}

  take(slot: Date, orderId: string, capacity: number): Promise<boolean> {
    return databaseOperation(async () => {
      const filter = { _id: new Date(slot.getTime()), holders: { $ne: orderId }, count: { $lt: capacity } };
      const update = { $inc: { count: 1 }, $push: { holders: orderId } };
      try {
        if ((await this.slots.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })) !== null) return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // The slot's document exists (another taker created it, or it was full or held already).
        if ((await this.slots.findOneAndUpdate(filter, update, { returnDocument: 'after' })) !== null) return true;
      }
      return (await this.slots.countDocuments({ _id: new Date(slot.getTime()), holders: orderId }, { limit: 1 })) > 0;
    });
  }

  release(slot: Date, orderId: string): Promise<void> {
    return databaseOperation(async () => {
      // Filtered on the holder: a second release of one order gives back nothing.
      await this.slots.updateOne({ _id: new Date(slot.getTime()), holders: orderId }, { $pull: { holders: orderId }, $inc: { count: -1 } });
    });
  }

  taken(from: Date, to: Date): Promise<ReadonlyMap<number, number>> {
    return databaseOperation(async () => {
      const documents = await this.slots
        .find({ _id: { $gte: new Date(from.getTime()), $lt: new Date(to.getTime()) } }, { projection: { count: 1 } })
        .toArray();
      return new Map(documents.map((d) => [d._id.getTime(), d.count]));
    });
  }
}
