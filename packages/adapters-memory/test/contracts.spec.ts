/** Every port contract, run against the memory adapters: a fresh store per test. */
import {
  describeCustomerRepositoryContract,
  describeErasureCrashContract,
  describeMenuRepositoryContract,
  describeOrderEventLogContract,
  describeOrderLifecycleContract,
  describeIdempotencyKeysContract,
  describeKeyedOrderWritesContract,
  describeOrderOutboxContract,
  describeOrderPaymentsContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  describePendingErasuresContract,
  describePasswordResetTokenStoreContract,
  describePaymentGatewayContract,
  describeProviderEventsContract,
  describeRateLimiterContract,
  describeSessionStoreContract,
  describeSlotCapacityContract,
  describeStoreStateRepositoryContract,
  describeWebhookDeliveriesContract,
  describeWebhookEndpointStoreContract,
  FakeClock,
} from '@storefront/testing';
import {
  createMemoryAdapters,
  InMemoryCustomerRepository,
  InMemoryIdempotencyKeys,
  InMemoryMenuRepository,
  InMemoryOrderEventLog,
  InMemoryOrderRepository,
  InMemoryPasswordResetTokenStore,
  InMemoryPaymentGateway,
  InMemoryProviderEvents,
  InMemoryRateLimiter,
  InMemorySessionStore,
  InMemorySlotPlaces,
  InMemoryStoreStateRepository,
  InMemoryWebhookDeliveryLog,
  InMemoryWebhookDeliveryQueue,
  InMemoryWebhookDeliveryUpkeep,
  WebhookDeliveryRows,
  InMemoryWebhookEndpointStore,
} from '../src/index.js';

describeMenuRepositoryContract('InMemoryMenuRepository', async () => new InMemoryMenuRepository());
describeOrderRepositoryContract('InMemoryOrderRepository', async () => new InMemoryOrderRepository());
describeOrderLifecycleContract('InMemoryOrderRepository', async () => new InMemoryOrderRepository());
describeIdempotencyKeysContract('InMemoryIdempotencyKeys', async () => createMemoryAdapters());
describeOrderOutboxContract('InMemoryOrderOutbox', async () => createMemoryAdapters());
describeOrderPaymentsContract('InMemoryOrderPayments', async () => {
  const { orders, orderPayments } = createMemoryAdapters();
  return { orders, payments: orderPayments };
});
describeOrderPlacementFaultsContract('InMemoryOrderRepository', async () => createMemoryAdapters());
describeKeyedOrderWritesContract('InMemoryIdempotencyKeys', async () => createMemoryAdapters());
describeSlotCapacityContract('InMemorySlotPlaces', async () => {
  const orders = new InMemoryOrderRepository();
  return { orders, idempotencyKeys: new InMemoryIdempotencyKeys(orders), menu: new InMemoryMenuRepository(), places: new InMemorySlotPlaces() };
});
describeCustomerRepositoryContract('InMemoryCustomerRepository', async () => new InMemoryCustomerRepository());
describePendingErasuresContract('InMemoryPendingErasures', async () => createMemoryAdapters());
describeErasureCrashContract('memory stores', async () => createMemoryAdapters());
describeStoreStateRepositoryContract('InMemoryStoreStateRepository', async () => new InMemoryStoreStateRepository());
describeSessionStoreContract('InMemorySessionStore', async () => new InMemorySessionStore());
describePasswordResetTokenStoreContract('InMemoryPasswordResetTokenStore', async () => new InMemoryPasswordResetTokenStore());
describeRateLimiterContract('InMemoryRateLimiter', async () => new InMemoryRateLimiter());
describeOrderEventLogContract(
  'InMemoryOrderEventLog',
  async (window) => {
    const clock = new FakeClock();
    return { log: new InMemoryOrderEventLog({ clock, ...window }), clock, close: async () => undefined };
  },
  { shared: false },
);
describeWebhookEndpointStoreContract('InMemoryWebhookEndpointStore', async () => new InMemoryWebhookEndpointStore());
describeWebhookDeliveriesContract('InMemoryWebhookDelivery{Queue,Log,Upkeep}', async () => {
  const rows = new WebhookDeliveryRows();
  const store = { queue: new InMemoryWebhookDeliveryQueue(rows), log: new InMemoryWebhookDeliveryLog(rows), upkeep: new InMemoryWebhookDeliveryUpkeep(rows) };
  return { store, other: store };
});

describePaymentGatewayContract('InMemoryPaymentGateway', async () => {
  const clock = new FakeClock();
  const gateway = new InMemoryPaymentGateway({ clock });
  return {
    gateway,
    confirm: async (intentId, card) => void (await gateway.confirm(intentId, card)),
    setDown: (down) => void (gateway.available = !down),
    advance: (ms) => clock.advance(ms),
  };
});

describeProviderEventsContract('InMemoryProviderEvents', async () => new InMemoryProviderEvents());
