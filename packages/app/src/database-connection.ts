/**
 * What a persistent database's connection gives the container, whichever one it is
 * (MongoDB, PostgreSQL): the adapter set once connected, `database_unavailable` at once before that,
 * and a start-up that retries what may pass (the database is not up yet) and stops on what will not.
 */
import type {
  CustomerRepository,
  HealthProbe,
  IdempotencyKeys,
  MenuRepository,
  OrderOutbox,
  OrderRepository,
  PasswordResetTokenStore,
  PendingErasures,
  SessionStore,
  StoreStateRepository,
  WebhookDeliveryLog,
  WebhookDeliveryQueue,
  WebhookDeliveryUpkeep,
  WebhookEndpointStore,
} from '@storefront/domain';
import { DomainError } from '@storefront/domain';
import type { KeyedOrderWrites, OrderPayments, ProviderEvents } from '@storefront/domain/adapter-kit';
import type { ConfigError } from './config.js';
import type { Logger } from './logger.js';

/** Every storage port of one database, as @storefront/adapters-mongo and -postgres make them. */
export interface DatabaseAdapterSet {
  readonly menu: MenuRepository;
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
  /** PostgreSQL's one-statement placement of a fresh key (absent: step by step). */
  readonly keyedOrderWrites?: KeyedOrderWrites;
  readonly orderOutbox: OrderOutbox;
  readonly customers: CustomerRepository;
  readonly pendingErasures: PendingErasures;
  readonly sessions: SessionStore;
  readonly resetTokens: PasswordResetTokenStore;
  readonly storeState: StoreStateRepository;
  readonly webhookEndpoints: WebhookEndpointStore;
  readonly webhookDeliveryQueue: WebhookDeliveryQueue;
  readonly webhookDeliveryLog: WebhookDeliveryLog;
  readonly webhookDeliveryUpkeep: WebhookDeliveryUpkeep;
  /** Card payments: orders by their intent, and the provider's events taken in. */
  readonly orderPayments: OrderPayments;
  readonly providerEvents: ProviderEvents;
  /** The database's own first (named `store` in /api/status, a public name). */
  readonly probes: readonly HealthProbe[];
}

export interface DatabaseConnection {
  /** Resolves once the database serves; rejects with a ConfigError when it never will. */
  ready(): Promise<unknown>;
  /** The adapters, or DomainError `database_unavailable` at once while not connected. */
  require(): DatabaseAdapterSet;
}

export interface RetryPlan<T> {
  /** The database's name in log lines: "PostgreSQL". */
  readonly what: string;
  readonly logger: Logger;
  /** One attempt; its failure is classified by `permanent`. */
  attempt(attempt: number): Promise<T>;
  /** The ConfigError to stop with when `error` fails the same way on every attempt, else undefined (retry). */
  permanent(error: unknown): ConfigError | undefined;
  /** Why a failure is retried, for the log line. Default "<what> is not reachable yet". */
  retrying?(error: unknown): string;
  stopped(): boolean;
  /** Longest pause between attempts. Default 10 s. */
  readonly maxRetryDelayMs?: number;
}

/** Runs `attempt` until it succeeds, backing off from 250 ms; a permanent failure or a stop ends it. */
export async function retryUntilUp<T>(plan: RetryPlan<T>): Promise<T> {
  let delay = 250;
  for (let attempt = 1; ; attempt++) {
    if (plan.stopped()) throw new Error(`the ${plan.what} connection was stopped`);
    try {
      return await plan.attempt(attempt);
    } catch (error) {
      if (plan.stopped()) throw new Error(`the ${plan.what} connection was stopped`);
      const fatal = plan.permanent(error);
      if (fatal !== undefined) {
        plan.logger.error({ err: error, attempt }, `store: ${plan.what} refused the store for good; not retrying`);
        throw fatal;
      }
      const why = plan.retrying?.(error) ?? `${plan.what} is not reachable yet`;
      plan.logger.warn({ err: error, attempt, retry_in_ms: delay }, `store: ${why}; retrying`);
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      delay = Math.min(delay * 2, plan.maxRetryDelayMs ?? 10_000);
    }
  }
}

/** What one database brings to a RetryingDatabaseConnection. */
export interface DatabaseStart<A> extends Omit<RetryPlan<A>, 'stopped'> {
  /** Ends what the attempts opened (a pool, the last client); an attempt still running then fails. */
  close(): Promise<void>;
}

/**
 * The connection of MongoDB and PostgreSQL alike: made in the background by retryUntilUp, so that a
 * Storefront started before its database serves at once (database operations fail fast with
 * `database_unavailable`, /api/status says `store: down`); ready() rejects with the ConfigError of a
 * permanent failure, on which the process exits 1.
 */
export class RetryingDatabaseConnection<A extends DatabaseAdapterSet> implements DatabaseConnection {
  private adapters: A | undefined;
  private stopped = false;
  private readonly connected: Promise<A>;

  constructor(private readonly start: DatabaseStart<A>) {
    this.connected = retryUntilUp({
      ...start,
      stopped: () => this.stopped,
      attempt: async (attempt) => (this.adapters = await start.attempt(attempt)),
    });
    this.connected.catch(() => undefined); // rejected only by stop() or a permanent error; readers see their own rejection
  }

  /** The adapters once connected; `undefined` while the database is not reachable yet. */
  get current(): A | undefined {
    return this.adapters;
  }

  ready(): Promise<A> {
    return this.connected;
  }

  require(): A {
    if (this.adapters === undefined) throw new DomainError('database_unavailable', 'The database is not connected yet.');
    return this.adapters;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.start.close();
  }
}
