/**
 * The domain: `createStorefront` wired from whatever adapters the other modules bound. A plain
 * factory, so the domain classes need no decorators and never see the container.
 */
import { sha256Hex } from '@storefront/adapters-crypto';
import { orderEventJson } from '@storefront/adapters-http';
import { createStorefront, type Storefront } from '@storefront/domain';
import { ContainerModule } from 'inversify';
import { bindFactory } from '../binding.js';
import { TYPES } from '../identifiers.js';
import { ServingPressure } from '../serving-pressure.js';
import { StartGate } from '../start-gate.js';

export function coreModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bindFactory(bind, TYPES.ServingPressure, [], () => new ServingPressure());
    bindFactory(bind, TYPES.StartGate, [], () => new StartGate());
    // `store` stays down until the store is prepared (seeded), not only reachable.
    bindFactory(bind, TYPES.HealthProbes, [TYPES.DatabaseProbe, TYPES.LimiterProbe, TYPES.StartGate], (database, limiter, gate) => [gate.guard(database), limiter]);
    bindFactory(
      bind,
      TYPES.Storefront,
      [
        TYPES.Config,
        TYPES.Clock,
        TYPES.MenuRepository,
        TYPES.OrderRepository,
        TYPES.IdempotencyKeys,
        TYPES.OrderOutbox,
        TYPES.CustomerRepository,
        TYPES.PendingErasures,
        TYPES.SessionStore,
        TYPES.RateLimiter,
        TYPES.PasswordHasher,
        TYPES.TokenService,
        TYPES.HealthProbes,
        TYPES.StoreStateRepository,
        TYPES.OrderEventLog,
        TYPES.Logger,
        TYPES.PasswordResetTokenStore,
        TYPES.Mailers,
        TYPES.SlotPlaces,
        TYPES.WebhookEndpointStore,
        TYPES.WebhookDeliveryQueue,
        TYPES.WebhookDeliveryLog,
        TYPES.WebhookDeliveryUpkeep,
        TYPES.WebhookSender,
        TYPES.WebhookUrlPolicy,
        TYPES.Metrics,
        TYPES.ServingPressure,
        TYPES.DatabaseReady,
        TYPES.KeyedOrderWrites,
        TYPES.CardPayments,
        TYPES.OrderPayments,
        TYPES.ProviderEvents,
      ],
      (config, clock, menu, orders, idempotencyKeys, orderOutbox, customers, pendingErasures, sessions, limiter, hasher, tokens, probes, storeState, events, logger, resetTokens, mailers, slotPlaces, webhookEndpoints, webhookDeliveryQueue, webhookDeliveryLog, webhookDeliveryUpkeep, webhookSender, webhookUrlPolicy, metrics, pressure, databaseReady, keyedOrderWrites, payments, orderPayments, providerEvents) =>
        withErasureSweep(databaseReady, createStorefront(
          {
            ...{ menu, orders, idempotencyKeys, orderOutbox, customers, pendingErasures, sessions, resetTokens, ...(mailers && { mailer: mailers.mailer }), limiter, hasher, tokens, clock, probes, storeState, events },
            slotPlaces,
            ...(keyedOrderWrites && { keyedOrderWrites }),
            ...{ webhookEndpoints, webhookDeliveryQueue, webhookDeliveryLog, webhookDeliveryUpkeep, webhookSender, webhookUrlPolicy },
            ...(config.deliveryZones !== null && { deliveryZones: config.deliveryZones }),
            // Card payments (STOREFRONT_PAYMENTS=stripe); without them orders are paid on pickup or delivery.
            ...(payments && { paymentGateway: payments.gateway, orderPayments, providerEvents }),
          },
          {
            events: {
              onFailure: (error) => logger.warn({ err: error }, 'order events: publishing failed; stored changes are published once it works again'),
              onRecovery: () => logger.info({}, 'order events: publishing again'),
            },
            store: { name: config.storeName, currency: config.currency, taxes: config.taxes },
            // The Idempotency-Key fingerprint by node:crypto's synchronous hash (same digest).
            orders: { sha256Hex },
            // A shared database: a token's session and customer kept 1 s per instance (DECISIONS: 2 s elsewhere).
            ...(config.database !== 'memory' && { callerCache: { ttlMs: 1000 } }),
            openingHours: config.openingHours,
            fulfilment: config.slots,
            requestPolicy: { name: 'default', limit: config.rateLimit.max, windowSeconds: config.rateLimit.windowSeconds },
            loginPolicy: { name: 'login', limit: config.loginRateLimit.max, windowSeconds: config.loginRateLimit.windowSeconds },
            loginEmailPolicy: { name: 'login-email', limit: config.loginEmailRateLimitMax, windowSeconds: config.loginRateLimit.windowSeconds },
            pollPolicy: { name: 'poll', limit: config.statusRateLimit.max, windowSeconds: config.statusRateLimit.windowSeconds },
            registerPolicy: { name: 'register', limit: config.registerRateLimit.max, windowSeconds: config.registerRateLimit.windowSeconds },
            ...(config.payments.provider === 'stripe' && { payments: { windowMs: config.payments.windowMs } }),
            ...(config.mail.passwordResetUrl !== undefined && { passwordResetUrl: config.mail.passwordResetUrl }),
            // The reset emails run off the request path: a failure (mail server down, no mailer) is logged here.
            background: { onError: (error, task) => logger.error({ err: error, task }, `background task failed: ${task}`) },
            webhooks: {
              allowHttp: config.webhooks.allowHttp,
              retentionMs: config.webhooks.retentionDays * 86_400_000,
              housekeeping: { onError: (error) => logger.warn({ err: error }, 'webhooks: removing expired deliveries failed; tried again at the next sweep') },
              // The bodies carry what the API shows: the order as GET /api/orders/{id}, a status as on the stream.
              payload: orderEventJson,
              dispatcher: {
                // A lease outlasts an attempt and the wait for the endpoint's turn (at most one attempt ahead).
                leaseMs: Math.max(60_000, 3 * config.webhooks.timeoutMs),
                // Deliveries give way to requests: a backlog being sent never takes the CPU placements need.
                busy: { now: pressure.busy, pauseMs: pressure.sampleMs },
                onError: (error) => logger.warn({ err: error }, 'webhooks: the delivery store failed; retried at the next poll'),
                ...(metrics && { onOutcome: (outcome) => metrics.webhookAttempted(outcome) }),
              },
            },
          },
        )),
    )
      // Stopped with the instance (unloading the container), or their timers would outlive it. The
      // payment sweeper is started by the service only (server.ts), not by the CLI.
      .onDeactivation((storefront) => {
        storefront.erasureSweep.stop();
        storefront.paymentSweeper?.stop();
      });
  });
}

/**
 * Erasures a stopped process left behind are finished once the store serves: swept at once, then
 * every minute (ErasureSweep). The CLI, which builds the same storefront, sweeps too: harmless.
 */
function withErasureSweep(databaseReady: () => Promise<void>, storefront: Storefront): Storefront {
  databaseReady().then(
    () => storefront.erasureSweep.start(),
    () => undefined,
  );
  return storefront;
}
