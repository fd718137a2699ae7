/**
 * The storage ports of a persistent database whose connection is made in the background (MongoDB,
 * PostgreSQL): each port goes to the connected adapter, or fails with `database_unavailable` while
 * there is none, so the bindings stay synchronous. One list of every port's methods for every database.
 */
import { RevisionCheckedMenu } from '@storefront/adapter-support';
import type { HealthProbe } from '@storefront/domain';
import type { Bind } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import { deferredPort } from '../mongo-connection.js';

/** The identifiers a database connection may be bound to. */
type ConnectionId = typeof TYPES.MongoConnection | typeof TYPES.PostgresConnection;

export function bindDeferredDatabase(bind: Bind, connection: ConnectionId): void {
  bindFactory(bind, TYPES.DatabaseReady, [connection], (c) => async () => {
    await c.ready();
  });
  // Menu reads from this instance's copy, the revision checked at most once a second.
  bindFactory(bind, TYPES.MenuRepository, [connection, TYPES.Clock], (c, clock) =>
    new RevisionCheckedMenu(deferredPort(() => c.require().menu, { list: true, findByIds: true, upsertByName: true, setAvailability: true, revision: true }), clock),
  );
  bindFactory(bind, TYPES.OrderRepository, [connection], (c) =>
    deferredPort(() => c.require().orders, {
      insert: true,
      findOrder: true,
      listByCustomer: true,
      findById: true,
      applyMove: true,
      eraseDeliveryAddresses: true,
      listByStatus: true,
    }),
  );
  bindFactory(bind, TYPES.IdempotencyKeys, [connection], (c) =>
    deferredPort(() => c.require().idempotencyKeys, { claim: true, takeOver: true, complete: true, abandon: true, release: true }),
  );
  bindFactory(bind, TYPES.OrderOutbox, [connection], (c) => ({
    ...deferredPort(() => c.require().orderOutbox, { listUnpublished: true, markPublished: true, markAllPublished: true }),
    // A store without the batch (MongoDB) marks one by one, as the relay would.
    markAllPublished: async (marks) => {
      const outbox = c.require().orderOutbox;
      if (outbox.markAllPublished !== undefined) return outbox.markAllPublished(marks);
      await Promise.all(marks.map((mark) => outbox.markPublished(mark.orderId, mark.version)));
    },
  }));
  bindFactory(bind, TYPES.CustomerRepository, [connection], (c) =>
    deferredPort(() => c.require().customers, {
      findByEmail: true,
      findById: true,
      create: true,
      setDisabled: true,
      setRole: true,
      updatePasswordHash: true,
      delete: true,
    }),
  );
  bindFactory(bind, TYPES.PendingErasures, [connection], (c) => deferredPort(() => c.require().pendingErasures, { mark: true, list: true }));
  bindFactory(bind, TYPES.SessionStore, [connection], (c) =>
    deferredPort(() => c.require().sessions, { create: true, findById: true, rotate: true, revoke: true, revokeAllOf: true }),
  );
  bindFactory(bind, TYPES.PasswordResetTokenStore, [connection], (c) =>
    deferredPort(() => c.require().resetTokens, { save: true, find: true, consume: true, deleteAllOf: true }),
  );
  bindFactory(bind, TYPES.StoreStateRepository, [connection], (c) => deferredPort(() => c.require().storeState, { get: true, setAcceptingOrders: true }));
  bindFactory(bind, TYPES.SlotPlaces, [connection], (c) => deferredPort(() => c.require().slotPlaces, { take: true, confirm: true, release: true, lapsed: true, evict: true, taken: true }));
  bindFactory(bind, TYPES.WebhookEndpointStore, [connection], (c) =>
    deferredPort(() => c.require().webhookEndpoints, { create: true, get: true, list: true, update: true, markFailing: true, remove: true }),
  );
  bindFactory(bind, TYPES.WebhookDeliveryQueue, [connection], (c) =>
    deferredPort(() => c.require().webhookDeliveryQueue, { enqueue: true, lease: true, record: true, stats: true }),
  );
  bindFactory(bind, TYPES.WebhookDeliveryLog, [connection], (c) => deferredPort(() => c.require().webhookDeliveryLog, { get: true, list: true, retry: true }));
  bindFactory(bind, TYPES.WebhookDeliveryUpkeep, [connection], (c) =>
    deferredPort(() => c.require().webhookDeliveryUpkeep, { rewritePayload: true, removeEndpoint: true, removeExpired: true, endpointsWithDeliveries: true }),
  );
  bindFactory(bind, TYPES.OrderPayments, [connection], (c) => deferredPort(() => c.require().orderPayments, { findByIntent: true, claimChecks: true }));
  bindFactory(bind, TYPES.ProviderEvents, [connection], (c) =>
    deferredPort(() => c.require().providerEvents, { claim: true, complete: true, release: true, isCompleted: true, removeBefore: true }),
  );
  bindFactory(bind, TYPES.DatabaseProbe, [connection], (c): HealthProbe => ({
    // `checks.store` of /api/status: a public name, kept (docs/decisions.md).
    name: 'store',
    check: async () => c.require().probes[0]!.check(),
  }));
}
