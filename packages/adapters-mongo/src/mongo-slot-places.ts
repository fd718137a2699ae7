/**
 * Places taken per slot on MongoDB: one document per slot, `{_id: slot start, count, holders,
 * leases}`. Taking a place is one conditional upsert (`holders: {$ne: id}, count: {$lt: k}`): a
 * single document's update is atomic, so of N concurrent takers exactly k match. A pending place
 * holds a lease until confirmed; giving back is filtered on the holder, so it happens once. An
 * E11000 from the upsert means the document exists and refused: a plain update or a look at
 * `holders` answers.
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
  /** The pending places among `holders`, each until its lease ends; absent in older documents. */
  leases?: { order: string; until: Date }[];
}

export class MongoSlotPlaces implements SlotPlaces {
  constructor(private readonly slots: Collection<SlotPlacesDocument>) {}

  take(slot: Date, orderId: string, capacity: number, heldUntil: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const _id = new Date(slot.getTime());
      const filter = { _id, holders: { $ne: orderId }, count: { $lt: capacity } };
      const update = { $inc: { count: 1 }, $push: { holders: orderId, leases: { order: orderId, until: heldUntil } } };
      try {
        if ((await this.slots.findOneAndUpdate(filter, update, { upsert: true, returnDocument: 'after' })) !== null) return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // The slot's document exists (another taker created it, or it was full or held already).
        if ((await this.slots.findOneAndUpdate(filter, update, { returnDocument: 'after' })) !== null) return true;
      }
      // Held already: a pending place's lease is renewed (a confirmed one has no lease to match).
      await this.slots.updateOne({ _id, 'leases.order': orderId }, { $set: { 'leases.$.until': heldUntil } });
      return (await this.slots.countDocuments({ _id, holders: orderId }, { limit: 1 })) > 0;
    });
  }

  confirm(slot: Date, orderId: string): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.slots.updateOne({ _id: new Date(slot.getTime()), holders: orderId }, { $pull: { leases: { order: orderId } } });
      return result.matchedCount === 1;
    });
  }

  release(slot: Date, orderId: string): Promise<void> {
    return databaseOperation(async () => {
      // Filtered on the holder: a second release of one order gives back nothing.
      await this.slots.updateOne({ _id: new Date(slot.getTime()), holders: orderId }, GIVE_BACK(orderId));
    });
  }

  lapsed(from: Date, to: Date, now: Date): Promise<readonly { slot: Date; orderId: string }[]> {
    return databaseOperation(async () => {
      const documents = await this.slots
        .find({ _id: { $gte: new Date(from.getTime()), $lt: new Date(to.getTime()) }, 'leases.until': { $lte: now } }, { projection: { leases: 1 } })
        .toArray();
      return documents.flatMap((d) => (d.leases ?? []).filter((l) => l.until.getTime() <= now.getTime()).map((l) => ({ slot: d._id, orderId: l.order })));
    });
  }

  evict(slot: Date, orderId: string, now: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const filter = { _id: new Date(slot.getTime()), holders: orderId, leases: { $elemMatch: { order: orderId, until: { $lte: now } } } };
      return (await this.slots.updateOne(filter, GIVE_BACK(orderId))).modifiedCount === 1;
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

/** The update that gives `orderId`'s place back; only ever run filtered on `holders: orderId`. */
const GIVE_BACK = (orderId: string) => ({ $pull: { holders: orderId, leases: { order: orderId } }, $inc: { count: -1 } });
