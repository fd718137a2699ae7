/**
 * Service identifiers of the container: one `unique symbol` per service, and the map from each
 * identifier to the type bound to it, so that binding and resolving are checked by the compiler.
 */
import type { CryptoAdapters } from '@storefront/adapters-crypto';
import type { Mailers } from '@storefront/adapters-mail';
import type { MemoryAdapters } from '@storefront/adapters-memory';
import type {
  Clock,
  CustomerRepository,
  HealthProbe,
  IdempotencyKeys,
  MenuRepository,
  OrderEventLog,
  OrderOutbox,
  OrderRepository,
  PasswordHasher,
  PasswordResetTokenStore,
  PendingErasures,
  RateLimiter,
  SessionStore,
  SlotPlaces,
  Storefront,
  StoreStateRepository,
  TokenService,
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointStore,
  WebhookUrlPolicy,
} from '@storefront/domain';
import type { HttpWebhookSender } from '@storefront/adapters-webhooks';
import type { KeyedOrderWrites, OrderPayments, ProviderEvents } from '@storefront/domain/adapter-kit';
import type { createHttpApp } from '@storefront/adapters-http';
import type { Redis } from 'ioredis';
import type { ServiceMetrics } from './metrics/service-metrics.js';
import type { CardPayments } from './modules/payments-module.js';
import type { ServingPressure } from './serving-pressure.js';
import type { StartGate } from './start-gate.js';
import type { MongoDatabaseConnection } from './mongo-connection.js';
import type { PostgresDatabaseConnection } from './postgres-connection.js';
import type { StorefrontConfig } from './config.js';
import type { Logger } from './logger.js';

const Config: unique symbol = Symbol.for('storefront.Config');
const LoggerId: unique symbol = Symbol.for('storefront.Logger');
const ClockId: unique symbol = Symbol.for('storefront.Clock');
const Memory: unique symbol = Symbol.for('storefront.MemoryAdapters');
const MenuRepositoryId: unique symbol = Symbol.for('storefront.MenuRepository');
const OrderRepositoryId: unique symbol = Symbol.for('storefront.OrderRepository');
const IdempotencyKeysId: unique symbol = Symbol.for('storefront.IdempotencyKeys');
const OrderOutboxId: unique symbol = Symbol.for('storefront.OrderOutbox');
const CustomerRepositoryId: unique symbol = Symbol.for('storefront.CustomerRepository');
const PendingErasuresId: unique symbol = Symbol.for('storefront.PendingErasures');
const SessionStoreId: unique symbol = Symbol.for('storefront.SessionStore');
const PasswordResetTokenStoreId: unique symbol = Symbol.for('storefront.PasswordResetTokenStore');
const MailersId: unique symbol = Symbol.for('storefront.Mailers');
const StoreStateRepositoryId: unique symbol = Symbol.for('storefront.StoreStateRepository');
const SlotPlacesId: unique symbol = Symbol.for('storefront.SlotPlaces');
const KeyedOrderWritesId: unique symbol = Symbol.for('storefront.KeyedOrderWrites');
const RateLimiterId: unique symbol = Symbol.for('storefront.RateLimiter');
const OrderEventLogId: unique symbol = Symbol.for('storefront.OrderEventLog');
const HealthProbes: unique symbol = Symbol.for('storefront.HealthProbes');
const DatabaseProbe: unique symbol = Symbol.for('storefront.DatabaseProbe');
const LimiterProbe: unique symbol = Symbol.for('storefront.LimiterProbe');
const RedisClientId: unique symbol = Symbol.for('storefront.RedisClient');
const MongoConnection: unique symbol = Symbol.for('storefront.MongoConnection');
const PostgresConnection: unique symbol = Symbol.for('storefront.PostgresConnection');
const DatabaseReady: unique symbol = Symbol.for('storefront.DatabaseReady');
const Crypto: unique symbol = Symbol.for('storefront.CryptoAdapters');
const PasswordHasherId: unique symbol = Symbol.for('storefront.PasswordHasher');
const TokenServiceId: unique symbol = Symbol.for('storefront.TokenService');
const StorefrontId: unique symbol = Symbol.for('storefront.Storefront');
const HttpApp: unique symbol = Symbol.for('storefront.HttpApp');
const MetricsId: unique symbol = Symbol.for('storefront.Metrics');
const ServingPressureId: unique symbol = Symbol.for('storefront.ServingPressure');
const StartGateId: unique symbol = Symbol.for('storefront.StartGate');
const WebhookEndpointStoreId: unique symbol = Symbol.for('storefront.WebhookEndpointStore');
const WebhookDeliveryQueueId: unique symbol = Symbol.for('storefront.WebhookDeliveryQueue');
const WebhookDeliveryLogId: unique symbol = Symbol.for('storefront.WebhookDeliveryLog');
const WebhookDeliveryUpkeepId: unique symbol = Symbol.for('storefront.WebhookDeliveryUpkeep');
const WebhookSenderId: unique symbol = Symbol.for('storefront.WebhookSender');
const WebhookUrlPolicyId: unique symbol = Symbol.for('storefront.WebhookUrlPolicy');
const OrderPaymentsId: unique symbol = Symbol.for('storefront.OrderPayments');
const ProviderEventsId: unique symbol = Symbol.for('storefront.ProviderEvents');
const CardPaymentsId: unique symbol = Symbol.for('storefront.CardPayments');

export const TYPES = {
  Config,
  Logger: LoggerId,
  Clock: ClockId,
  /** The in-memory adapter set as one object (memory database only). */
  MemoryAdapters: Memory,
  MenuRepository: MenuRepositoryId,
  OrderRepository: OrderRepositoryId,
  IdempotencyKeys: IdempotencyKeysId,
  OrderOutbox: OrderOutboxId,
  CustomerRepository: CustomerRepositoryId,
  PendingErasures: PendingErasuresId,
  SessionStore: SessionStoreId,
  /** Hashes of the single-use password reset tokens. */
  PasswordResetTokenStore: PasswordResetTokenStoreId,
  /**
   * The Mailer (SMTP with SMTP_URL, else the log in memory mode; none with MongoDB and no SMTP_URL)
   * with its description and `close`.
   */
  Mailers: MailersId,
  /** Whether the kitchen has paused ordering, shared by every instance. */
  StoreStateRepository: StoreStateRepositoryId,
  /** Places taken per slot (STOREFRONT_SLOT_CAPACITY), shared by every instance on the database. */
  SlotPlaces: SlotPlacesId,
  /** A fresh key's claim and order in one write (PostgreSQL), else null: step by step. */
  KeyedOrderWrites: KeyedOrderWritesId,
  RateLimiter: RateLimiterId,
  /** The log of order events the live streams read: Redis with REDIS_URL, else in-process. */
  OrderEventLog: OrderEventLogId,
  /** Every dependency the status check asks (`store`, `rate_limiter`, …). */
  HealthProbes,
  /** The database's health probe, named `store` (the public name of its check in /api/status). */
  DatabaseProbe,
  /** The rate limiter's health probe, named `rate_limiter`. */
  LimiterProbe,
  /** The ioredis client of the shared limiter (REDIS_URL only). */
  RedisClient: RedisClientId,
  /** The MongoDB connection, retried in the background until it is up (mongo database only). */
  MongoConnection,
  /** The PostgreSQL pool and adapters, migrated and made in the background (postgres database only). */
  PostgresConnection,
  /** Resolves once the database can serve (at once in memory; after connecting with MongoDB or PostgreSQL). */
  DatabaseReady,
  /** The hasher and token service as built, with their extra operations (`ready`, `stats`). */
  CryptoAdapters: Crypto,
  PasswordHasher: PasswordHasherId,
  TokenService: TokenServiceId,
  Storefront: StorefrontId,
  HttpApp,
  /** What the adapters report to metrics; undefined when METRICS_PORT is unset (nothing recorded). */
  Metrics: MetricsId,
  ServingPressure: ServingPressureId,
  /** Opened once start-up is done (server.ts); the HTTP app and the store check wait for it. */
  StartGate: StartGateId,
  /** Webhook endpoints and deliveries, in the selected store (shared by every instance). */
  WebhookEndpointStore: WebhookEndpointStoreId,
  WebhookDeliveryQueue: WebhookDeliveryQueueId,
  WebhookDeliveryLog: WebhookDeliveryLogId,
  WebhookDeliveryUpkeep: WebhookDeliveryUpkeepId,
  /** The HTTP sender of @storefront/adapters-webhooks (WEBHOOK_TIMEOUT_MS, WEBHOOK_ALLOW_*); closed with the container. */
  WebhookSender: WebhookSenderId,
  /** The address rules at registration (WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOW_PRIVATE). */
  WebhookUrlPolicy: WebhookUrlPolicyId,
  /** Orders found by their payment's intent, and the sweeper's due checks, in the selected store. */
  OrderPayments: OrderPaymentsId,
  /** The provider's events taken in, each id once, in the selected store (shared by every instance). */
  ProviderEvents: ProviderEventsId,
  /** The payment provider and its events' intake (STOREFRONT_PAYMENTS=stripe); undefined when payments are off. */
  CardPayments: CardPaymentsId,
} as const;

/** What each identifier resolves to. */
export interface Services {
  [TYPES.Config]: StorefrontConfig;
  [TYPES.Logger]: Logger;
  [TYPES.Clock]: Clock;
  [TYPES.MemoryAdapters]: MemoryAdapters;
  [TYPES.MenuRepository]: MenuRepository;
  [TYPES.OrderRepository]: OrderRepository;
  [TYPES.IdempotencyKeys]: IdempotencyKeys;
  [TYPES.OrderOutbox]: OrderOutbox;
  [TYPES.CustomerRepository]: CustomerRepository;
  [TYPES.PendingErasures]: PendingErasures;
  [TYPES.SessionStore]: SessionStore;
  [TYPES.PasswordResetTokenStore]: PasswordResetTokenStore;
  [TYPES.Mailers]: Mailers | undefined;
  [TYPES.StoreStateRepository]: StoreStateRepository;
  [TYPES.SlotPlaces]: SlotPlaces;
  [TYPES.KeyedOrderWrites]: KeyedOrderWrites | null;
  [TYPES.RateLimiter]: RateLimiter;
  [TYPES.OrderEventLog]: OrderEventLog;
  [TYPES.HealthProbes]: readonly HealthProbe[];
  [TYPES.DatabaseProbe]: HealthProbe;
  [TYPES.LimiterProbe]: HealthProbe;
  [TYPES.RedisClient]: Redis;
  [TYPES.MongoConnection]: MongoDatabaseConnection;
  [TYPES.PostgresConnection]: PostgresDatabaseConnection;
  [TYPES.DatabaseReady]: () => Promise<void>;
  [TYPES.CryptoAdapters]: CryptoAdapters;
  [TYPES.PasswordHasher]: PasswordHasher;
  [TYPES.TokenService]: TokenService;
  [TYPES.Storefront]: Storefront;
  /** The Koa app of @storefront/adapters-http (its type, without depending on koa here). */
  [TYPES.HttpApp]: ReturnType<typeof createHttpApp>;
  [TYPES.Metrics]: ServiceMetrics | undefined;
  [TYPES.ServingPressure]: ServingPressure;
  [TYPES.StartGate]: StartGate;
  [TYPES.WebhookEndpointStore]: WebhookEndpointStore;
  [TYPES.WebhookDeliveryQueue]: WebhookDeliveryQueue;
  [TYPES.WebhookDeliveryLog]: WebhookDeliveryLog;
  [TYPES.WebhookDeliveryUpkeep]: WebhookDeliveryUpkeep;
  [TYPES.WebhookSender]: HttpWebhookSender;
  [TYPES.WebhookUrlPolicy]: WebhookUrlPolicy;
  [TYPES.OrderPayments]: OrderPayments;
  [TYPES.ProviderEvents]: ProviderEvents;
  [TYPES.CardPayments]: CardPayments | undefined;
}

export type ServiceId = keyof Services;
