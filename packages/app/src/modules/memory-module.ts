/**
 * The embedded store: every storage port and the rate limiter from @storefront/adapters-memory,
 * all from one `createMemoryAdapters()` call so that they share one process-local state.
 */
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';

export function memoryModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.MemoryAdapters, [TYPES.Clock], (clock) => createMemoryAdapters({ clock }));
    bindFactory(bind, TYPES.MenuRepository, [TYPES.MemoryAdapters], (memory) => memory.menu);
    bindFactory(bind, TYPES.OrderRepository, [TYPES.MemoryAdapters], (memory) => memory.orders);
    bindFactory(bind, TYPES.CustomerRepository, [TYPES.MemoryAdapters], (memory) => memory.customers);
    bindFactory(bind, TYPES.SessionStore, [TYPES.MemoryAdapters], (memory) => memory.sessions);
    bindFactory(bind, TYPES.RateLimiter, [TYPES.MemoryAdapters], (memory) => memory.limiter);
    bindFactory(bind, TYPES.HealthProbes, [TYPES.MemoryAdapters], (memory) => memory.probes);
  });
}
