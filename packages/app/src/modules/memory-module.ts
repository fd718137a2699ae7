/**
 * The embedded database: every storage port from @storefront/adapters-memory, all from one
 * `createMemoryAdapters()` call so that they share one process-local state.
 */
import { createMemoryAdapters, InMemoryOrderEventLog, InMemoryRateLimiter } from '@storefront/adapters-memory';
import type { HealthProbe } from '@storefront/domain';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';

export function memoryModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.MemoryAdapters, [TYPES.Clock], (clock) => createMemoryAdapters({ clock }));
    bindFactory(bind, TYPES.MenuRepository, [TYPES.MemoryAdapters], (memory) => memory.menu);
    bindFactory(bind, TYPES.OrderRepository, [TYPES.MemoryAdapters], (memory) => memory.orders);
    bindFactory(bind, TYPES.IdempotencyKeys, [TYPES.MemoryAdapters], (memory) => memory.idempotencyKeys);
    bindFactory(bind, TYPES.OrderOutbox, [TYPES.MemoryAdapters], (memory) => memory.orderOutbox);
    bindFactory(bind, TYPES.CustomerRepository, [TYPES.MemoryAdapters], (memory) => memory.customers);
    bindFactory(bind, TYPES.PendingErasures, [TYPES.MemoryAdapters], (memory) => memory.pendingErasures);
    bindFactory(bind, TYPES.SessionStore, [TYPES.MemoryAdapters], (memory) => memory.sessions);
    bindFactory(bind, TYPES.PasswordResetTokenStore, [TYPES.MemoryAdapters], (memory) => memory.resetTokens);
    bindFactory(bind, TYPES.StoreStateRepository, [TYPES.MemoryAdapters], (memory) => memory.storeState);
    bindFactory(bind, TYPES.SlotPlaces, [TYPES.MemoryAdapters], (memory) => memory.slotPlaces);
    // One step over the memory stores' own orders and keys; a store bound in their place (a test's
    // wrapper) is written step by step through it.
    bindFactory(bind, TYPES.KeyedOrderWrites, [TYPES.MemoryAdapters, TYPES.OrderRepository, TYPES.IdempotencyKeys], (memory, orders, keys) =>
      orders === memory.orders && keys === memory.idempotencyKeys ? memory.keyedOrderWrites : null,
    );
    bindFactory(bind, TYPES.WebhookEndpointStore, [TYPES.MemoryAdapters], (memory) => memory.webhookEndpoints);
    bindFactory(bind, TYPES.WebhookDeliveryQueue, [TYPES.MemoryAdapters], (memory) => memory.webhookDeliveryQueue);
    bindFactory(bind, TYPES.WebhookDeliveryLog, [TYPES.MemoryAdapters], (memory) => memory.webhookDeliveryLog);
    bindFactory(bind, TYPES.WebhookDeliveryUpkeep, [TYPES.MemoryAdapters], (memory) => memory.webhookDeliveryUpkeep);
    bindFactory(bind, TYPES.OrderPayments, [TYPES.MemoryAdapters], (memory) => memory.orderPayments);
    bindFactory(bind, TYPES.ProviderEvents, [TYPES.MemoryAdapters], (memory) => memory.providerEvents);
    bindFactory(bind, TYPES.DatabaseReady, [], () => () => Promise.resolve());
    bindFactory(bind, TYPES.DatabaseProbe, [TYPES.MemoryAdapters], (memory) => probeNamed(memory.probes, 'store'));
  });
}

/**
 * Without REDIS_URL, with any database: the in-process limiter (exact for one instance, not shared
 * between instances) and the in-process event log (live streams see this instance's changes only).
 */
export function memoryLimiterModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.RateLimiter, [TYPES.Clock, TYPES.Metrics], (clock, metrics) =>
      new InMemoryRateLimiter({ clock, onDecision: metrics && ((decision, policy) => metrics.rateLimitDecided(policy.name, decision.allowed, 'memory')) }),
    );
    bindFactory(bind, TYPES.OrderEventLog, [TYPES.Clock], (clock) => new InMemoryOrderEventLog({ clock }));
    bindFactory(bind, TYPES.LimiterProbe, [], () => ({ name: 'rate_limiter', check: () => Promise.resolve() }));
  });
}

function probeNamed(probes: readonly HealthProbe[], name: string): HealthProbe {
  const probe = probes.find((candidate) => candidate.name === name);
  if (probe === undefined) throw new Error(`the memory adapters have no ${name} probe`);
  return probe;
}
