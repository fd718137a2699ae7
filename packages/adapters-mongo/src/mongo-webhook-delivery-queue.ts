/**
 * The webhook delivery queue in MongoDB, shared by every instance (the admin's log and the upkeep:
 * mongo-webhook-delivery-log.ts, -upkeep.ts). A claim is one findOneAndUpdate filtered on "pending,
 * due, not leased or its lease ran out": of two claimers only one matches (MongoDB manual,
 * "Atomicity and Transactions"). No "lock and skip" for a batch, so `lease` claims candidates one
 * by one; held-back ones move on as in PostgreSQL. `record` is conditional on the lease token.
 */
import { randomUUID } from 'node:crypto';
import type { WebhookDeliveryQueue } from '@storefront/domain';
import { type DeliveryOutcome, type LeasedDelivery, type LeaseRequest, newId, type WebhookDeliveryStats, type WebhookEvent } from '@storefront/domain/adapter-kit';
import type { Collection, Filter, UpdateFilter } from 'mongodb';
import { LEASE_HELD_SCAN, LEASE_MAX_WINDOWS, leaseWindow } from '@storefront/adapter-support';
import { INDEXES } from './collections.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';
import { toLeased, type WebhookDeliveryDocument } from './webhook-mappers.js';

/** Pending, due at `now`, and not held by a lease (none, or one that ran out). */
function leasable(now: Date): Filter<WebhookDeliveryDocument> {
  return { status: 'pending', nextAttemptAt: { $lte: now }, leaseUntil: { $not: { $gt: now } } };
}

export class MongoWebhookDeliveryQueue implements WebhookDeliveryQueue {
  constructor(private readonly deliveries: Collection<WebhookDeliveryDocument>) {}

  enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void> {
    const endpoints = [...new Set(webhookIds)];
    if (endpoints.length === 0) return Promise.resolve();
    const documents = endpoints.map(
      (webhookId): WebhookDeliveryDocument => ({
        _id: newId('wdl'),
        webhookId,
        eventId: event.eventId,
        type: event.type,
        payload: event.payload,
        ...(event.orderId === undefined ? {} : { orderId: event.orderId }),
        ...(event.orderVersion === undefined ? {} : { orderVersion: event.orderVersion }),
        createdAt: new Date(event.createdAt),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(event.createdAt),
        readyAt: new Date(event.createdAt),
      }),
    );
    return databaseOperation(async () => {
      try {
        // Unordered: the pairs already stored fail on the unique (webhookId, eventId) index, the others are written.
        await this.deliveries.insertMany(documents, { ordered: false });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    });
  }

  lease(request: LeaseRequest): Promise<LeasedDelivery[]> {
    const times = leaseWindow(request);
    if (times === null) return Promise.resolve([]);
    const { now } = request;
    const { limit, leaseUntil, recheckAt, recheckSoonAt } = times;
    // Only the endpoints that can take deliveries: the index is read for those alone.
    const excluded = new Set(request.excludeWebhookIds ?? []);
    const endpoints = [...new Set(request.webhookIds)].filter((webhookId) => !excluded.has(webhookId));
    if (endpoints.length === 0) return Promise.resolve([]);
    return databaseOperation(async () => {
      const leased: LeasedDelivery[] = [];
      // The first window is what is wanted; wider only once held-back deliveries (now moved on) filled one.
      for (let windows = 0, extra = 0; windows < LEASE_MAX_WINDOWS; windows++, extra = LEASE_HELD_SCAN) {
        const window = limit - leased.length + extra;
        const candidates = await this.deliveries
          .find(
            { ...leasable(now), readyAt: { $lte: now }, webhookId: { $in: endpoints } },
            {
              projection: { _id: 1, webhookId: 1, orderId: 1, orderVersion: 1 },
              sort: { readyAt: 1, _id: 1 },
              // The filter holds the partial index's condition (pending), so the hint is safe; without
              // it the planner may pick another index on webhookId and sort every pending delivery.
              hint: INDEXES.webhookDeliveriesDue,
              limit: window,
            },
          )
          .toArray();
        for (const candidate of candidates) {
          if (leased.length >= limit) break;
          const holder = await this.heldBack(candidate);
          if (holder !== null) {
            const readyAt = holder.nextAttemptAt !== undefined && holder.nextAttemptAt > now ? recheckAt : recheckSoonAt;
            await this.deliveries.updateOne({ _id: candidate._id, status: 'pending' }, { $set: { readyAt } });
            continue;
          }
          const claimed = await this.deliveries.findOneAndUpdate(
            { _id: candidate._id, ...leasable(now) },
            { $set: { leaseToken: randomUUID(), leaseUntil } },
            { returnDocument: 'after' },
          );
          if (claimed !== null) leased.push(toLeased(claimed));
        }
        if (leased.length >= limit || candidates.length < window) break;
      }
      return leased;
    });
  }

  /** The pending delivery of the same endpoint and order with a lower version that holds this one back, if any. */
  private async heldBack(
    candidate: Pick<WebhookDeliveryDocument, 'webhookId' | 'orderId' | 'orderVersion'>,
  ): Promise<{ readonly nextAttemptAt?: Date } | null> {
    if (candidate.orderId == null || candidate.orderVersion == null) return null;
    const earlier = await this.deliveries.findOne(
      { webhookId: candidate.webhookId, orderId: candidate.orderId, status: 'pending', orderVersion: { $lt: candidate.orderVersion } },
      { projection: { _id: 1, nextAttemptAt: 1 }, hint: INDEXES.webhookDeliveriesPendingOrder },
    );
    if (earlier === null) return null;
    return earlier.nextAttemptAt instanceof Date ? { nextAttemptAt: earlier.nextAttemptAt } : {};
  }

  record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean> {
    const set: Partial<WebhookDeliveryDocument> = { status: outcome.kind === 'retry' ? 'pending' : outcome.kind };
    const unset: Partial<Record<keyof WebhookDeliveryDocument, ''>> = { leaseToken: '', leaseUntil: '' };
    if (outcome.statusCode === undefined) unset.lastStatusCode = '';
    else set.lastStatusCode = outcome.statusCode;
    const error = outcome.kind === 'delivered' ? undefined : outcome.error;
    if (error === undefined) unset.lastError = '';
    else set.lastError = error;
    if (outcome.kind === 'retry') {
      set.nextAttemptAt = new Date(outcome.nextAttemptAt);
      set.readyAt = new Date(outcome.nextAttemptAt);
    } else {
      unset.nextAttemptAt = '';
      unset.readyAt = '';
    }
    if (outcome.kind === 'delivered') set.deliveredAt = new Date(outcome.at);
    if (outcome.kind === 'retry' || outcome.keepUntil === undefined) unset.expiresAt = '';
    else set.expiresAt = new Date(outcome.keepUntil);
    const update: UpdateFilter<WebhookDeliveryDocument> = { $inc: { attempts: 1 }, $set: set, $unset: unset };
    return databaseOperation(async () => {
      const recorded = await this.deliveries.findOneAndUpdate({ _id: deliveryId, leaseToken, status: 'pending' }, update, {
        projection: { webhookId: 1, orderId: 1, orderVersion: 1 },
      });
      if (recorded === null) return false;
      if (outcome.kind !== 'retry' && recorded.orderId != null && recorded.orderVersion != null) {
        // The later versions it held back are due again at their own time.
        await this.deliveries.updateMany(
          { webhookId: recorded.webhookId, orderId: recorded.orderId, status: 'pending', orderVersion: { $gt: recorded.orderVersion } },
          [{ $set: { readyAt: '$nextAttemptAt' } }],
        );
      }
      return true;
    });
  }

  stats(): Promise<WebhookDeliveryStats> {
    return databaseOperation(async () => {
      const [pending, oldest] = await Promise.all([
        // Hinted: for `status` alone the planner does not consider this partial index, and would read every delivery.
        this.deliveries.countDocuments({ status: 'pending' }, { hint: INDEXES.webhookDeliveriesPendingAge }),
        this.deliveries.findOne({ status: 'pending' }, { sort: { createdAt: 1 }, projection: { createdAt: 1 }, hint: INDEXES.webhookDeliveriesPendingAge }),
      ]);
      return { pending, ...(oldest === null ? {} : { oldestPendingAt: oldest.createdAt }) };
    });
  }
}
