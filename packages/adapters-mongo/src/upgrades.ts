/**
 * What changes in a store written by an older version. Each data upgrade runs once per database
 * (listed in the `schema` document of `meta` once finished), bounded by the kitchen queue's index,
 * and idempotent, so instances starting together at most repeat it cheaply (docs/decisions.md,
 * "Issue 32, items 8, 9, 10"). Key records are upgraded when a claim meets one: they expire in a
 * day and no index finds a missing field among them.
 */
import { newId } from '@storefront/domain/adapter-kit';
import type { Collection, Db, ObjectId } from 'mongodb';
import { COLLECTIONS, INDEXES } from './collections.js';
import type { IdempotencyDocument } from './idempotency-record.js';
import type { OrderDocument } from './order-mapper.js';

/** The `meta` document that lists the data upgrades done on this database. */
export interface SchemaDocument {
  _id: 'schema';
  upgrades: string[];
}

const SCHEMA = 'schema';

interface DataUpgrade {
  /** Stable: it is stored in the schema document. */
  readonly id: string;
  run(db: Db): Promise<unknown>;
}

/** In the order they were introduced; a new one is appended with a new id. */
export const DATA_UPGRADES: readonly DataUpgrade[] = [
  { id: 'orders-retired-key-index', run: dropRetiredIndexes },
  { id: 'orders-lifecycle', run: upgradeOrderLifecycle },
  { id: 'orders-promised-at', run: upgradeOrderPromisedAt },
];

/** Runs the data upgrades this database has not had; the ids of those it ran. */
export async function upgradeDatabase(db: Db): Promise<string[]> {
  const meta = db.collection<SchemaDocument>(COLLECTIONS.meta);
  const done = new Set((await meta.findOne({ _id: SCHEMA }))?.upgrades ?? []);
  const ran: string[] = [];
  for (const upgrade of DATA_UPGRADES) {
    if (done.has(upgrade.id)) continue;
    await upgrade.run(db);
    // Listed only once done: a start cut short runs it again (it is idempotent).
    await meta.updateOne({ _id: SCHEMA }, { $addToSet: { upgrades: upgrade.id } }, { upsert: true });
    ran.push(upgrade.id);
  }
  return ran;
}

/**
 * The first release kept a second guard against doubles: a unique index on the orders'
 * {customerId, idempotencyKey}. Orders no longer carry the key (the key records do), so it only
 * costs every insert: dropped, whatever its name.
 */
export async function dropRetiredIndexes(db: Db): Promise<string[]> {
  const orders = db.collection(COLLECTIONS.orders);
  const retired = (await orders.indexes()).filter((index) => sameKey(index.key, { customerId: 1, idempotencyKey: 1 }));
  for (const index of retired) await orders.dropIndex(index.name!);
  return retired.map((index) => index.name!);
}

function sameKey(key: Record<string, unknown>, expected: Record<string, number>): boolean {
  return JSON.stringify(Object.entries(key)) === JSON.stringify(Object.entries(expected));
}

/**
 * The kitchen queue's index ({status, promisedAt, createdAt, _id}) holds a missing field as null:
 * hinted, `status: {$exists: false}` reads only the keys with a null status, and `promisedAt:
 * {$exists: false}` only those with a null promisedAt under each status (the scan seeks past the
 * rest). Either costs what it finds, not the size of `orders`.
 */
const BY_QUEUE_INDEX = { hint: INDEXES.ordersByStatus } as const;

/**
 * Orders placed before the kitchen lifecycle have no status: the mapper reads them as placed, but
 * the queue's index and a move's compare-and-set on `version` need the fields written. This gives
 * them the placed state (one update, from their own createdAt).
 */
export async function upgradeOrderLifecycle(db: Db): Promise<number> {
  const result = await db.collection(COLLECTIONS.orders).updateMany(
    { status: { $exists: false } },
    [{ $set: { status: 'placed', version: 1, updatedAt: '$createdAt', statusHistory: [{ status: 'placed', at: '$createdAt' }] } }],
    BY_QUEUE_INDEX,
  );
  return result.modifiedCount;
}

/** Orders placed before fulfilment are promised when they were placed: the kitchen queue's index needs `promisedAt` written. */
export async function upgradeOrderPromisedAt(db: Db): Promise<number> {
  const result = await db.collection(COLLECTIONS.orders).updateMany({ promisedAt: { $exists: false } }, [{ $set: { promisedAt: '$createdAt' } }], BY_QUEUE_INDEX);
  return result.modifiedCount;
}

/** Both order upgrades at once (tests of a store written by an older version). */
export async function upgradeOrders(db: Db): Promise<number> {
  return (await upgradeOrderLifecycle(db)) + (await upgradeOrderPromisedAt(db));
}

/** The holder named on key records of the first release, which named none. */
export const FIRST_RELEASE_OWNER = 'first-release';

/** A key record as the first release wrote it: no holder, the order id only once completed, `claimedAt`. */
export interface FirstReleaseKeyRecord {
  _id?: ObjectId;
  customerId: string;
  key: string;
  state: 'in_progress' | 'completed';
  owner?: string;
  orderId?: string;
  orderCreatedAt?: Date;
  claimedAt?: Date;
}

export function isFirstReleaseKeyRecord(record: IdempotencyDocument | FirstReleaseKeyRecord): boolean {
  return typeof record.owner !== 'string' || !(record.orderCreatedAt instanceof Date) || typeof record.orderId !== 'string';
}

/**
 * Gives a first-release key record what the protocol needs: a holder, and the order the key
 * stands for. The first release stored the key on the order it placed, so that order, found by its
 * id or by the key, is the key's answer (completed). A record in flight with no order placed gets
 * the id its takeover will place; a completed one whose order cannot be found is deleted, so that a
 * retry places the order instead of failing on a replay of nothing. Filtered on the fields still
 * missing: a record another start or claim upgraded meanwhile is left alone.
 */
export async function upgradeKeyRecord(
  records: Collection<IdempotencyDocument>,
  orders: Collection<OrderDocument>,
  record: FirstReleaseKeyRecord,
): Promise<void> {
  const still = { _id: record._id!, $or: [{ owner: { $exists: false } }, { orderCreatedAt: { $exists: false } }, { orderId: { $exists: false } }] };
  const placed =
    typeof record.orderId === 'string'
      ? await orders.findOne({ _id: record.orderId, customerId: record.customerId })
      : await orders.findOne({ customerId: record.customerId, idempotencyKey: record.key } as object);
  const owner = record.owner ?? FIRST_RELEASE_OWNER;
  if (placed !== null) {
    await records.updateOne(still, { $set: { owner, state: 'completed', orderId: placed._id, orderCreatedAt: placed.createdAt } });
  } else if (record.state === 'in_progress') {
    const orderCreatedAt = record.orderCreatedAt ?? record.claimedAt ?? record._id!.getTimestamp();
    await records.updateOne(still, { $set: { owner, orderId: record.orderId ?? newId('ord'), orderCreatedAt } });
  } else {
    await records.deleteOne(still);
  }
}
