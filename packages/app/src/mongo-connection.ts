/**
 * The MongoDB store's connection, made in the background and retried until MongoDB is up, so that a
 * Storefront started before its database serves at once: store operations fail fast with
 * `store_unavailable` (500 for that operation) and /api/status reports `store: down` meanwhile.
 *
 * A fresh client per attempt: the driver leaves a client whose first connect failed unusable.
 */
import { createMongoAdapters, type MongoAdapters } from '@storefront/adapters-mongo';
import { DomainError } from '@storefront/domain';
import { MongoClient } from 'mongodb';
import type { Logger } from './logger.js';

export interface MongoConnectionOptions {
  /** How long one operation waits for a usable server. Default 5 s. */
  readonly serverSelectionTimeoutMs?: number;
  /** Longest pause between connection attempts. Default 10 s. */
  readonly maxRetryDelayMs?: number;
}

export class MongoStoreConnection {
  private client: MongoClient | undefined;
  private adapters: MongoAdapters | undefined;
  private stopped = false;
  private readonly connected: Promise<MongoAdapters>;

  constructor(
    private readonly uri: string,
    private readonly logger: Logger,
    private readonly options: MongoConnectionOptions = {},
  ) {
    this.connected = this.connectUntilUp();
    this.connected.catch(() => undefined); // rejected only by stop(); readers see their own rejection
  }

  /** The adapters once connected; `undefined` while MongoDB is not reachable yet. */
  get current(): MongoAdapters | undefined {
    return this.adapters;
  }

  /** Resolves once connected and indexed. */
  ready(): Promise<MongoAdapters> {
    return this.connected;
  }

  /** The adapters, or `store_unavailable` at once while not connected. */
  require(): MongoAdapters {
    if (this.adapters === undefined) throw new DomainError('store_unavailable', 'The store is not connected yet.');
    return this.adapters;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.client?.close();
  }

  private async connectUntilUp(): Promise<MongoAdapters> {
    let delay = 250;
    for (let attempt = 1; ; attempt++) {
      if (this.stopped) throw new Error('the MongoDB connection was stopped');
      const client = new MongoClient(this.uri, {
        appName: 'storefront',
        serverSelectionTimeoutMS: this.options.serverSelectionTimeoutMs ?? 5000,
      });
      this.client = client;
      try {
        await client.connect();
        this.adapters = await createMongoAdapters({ db: client.db() });
        this.logger.info({ database: client.db().databaseName, attempt }, 'store: connected to MongoDB');
        return this.adapters;
      } catch (error) {
        await client.close().catch(() => undefined);
        this.logger.warn({ err: error, attempt, retry_in_ms: delay }, 'store: MongoDB is not reachable yet; retrying');
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 10_000);
      }
    }
  }
}

/**
 * A port whose methods go to the connected adapter, or fail with `store_unavailable` while there is
 * none. The methods are listed, not guessed: a proxy answering every property would look like a
 * thenable or a disposable to whoever inspects it.
 */
export function deferredPort<T extends object>(pick: () => T, methods: readonly (keyof T & string)[]): T {
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of methods) {
    port[method] = async (...args: unknown[]) => {
      const target = pick() as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return target[method]!(...args);
    };
  }
  return port as T;
}
