/**
 * The MongoDB database's connection, made in the background and retried until MongoDB is up, so that a
 * Storefront started before its database serves at once: database operations fail fast with
 * `database_unavailable` (500 for that operation) and /api/status reports `store: down` meanwhile.
 * A failure that no retry can change (see mongo-start-errors.ts) ends the attempts instead: ready()
 * rejects with a ConfigError naming MONGODB_URI, and the process exits 1 on it.
 *
 * Every operation runs with the settings of adapters-mongo's client-settings.ts: each stage bounded by
 * MONGODB_TIMEOUT_MS, majority-acknowledged journaled writes, primary majority reads.
 *
 * A fresh client per attempt: the driver leaves a client whose first connect failed unusable.
 */
import { createMongoAdapters, DEFAULT_MONGODB_TIMEOUT_MS, IndexBuildError, deploymentOn, durableDb, mongoClientOptions, type MongoAdapters } from '@storefront/adapters-mongo';
import { DomainError } from '@storefront/domain';
import { MongoClient } from 'mongodb';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';
import { classifyStartError } from './mongo-start-errors.js';

export interface MongoConnectionOptions {
  /** The bound of every stage of an operation (MONGODB_TIMEOUT_MS). Default 2 s. */
  readonly timeoutMs?: number;
  /** Longest pause between connection attempts. Default 10 s. */
  readonly maxRetryDelayMs?: number;
}

export class MongoDatabaseConnection {
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
    this.connected.catch(() => undefined); // rejected only by stop() or a permanent error; readers see their own rejection
  }

  /** The adapters once connected; `undefined` while MongoDB is not reachable yet. */
  get current(): MongoAdapters | undefined {
    return this.adapters;
  }

  /** Resolves once connected and indexed; rejects with a ConfigError on a permanent failure. */
  ready(): Promise<MongoAdapters> {
    return this.connected;
  }

  /** The adapters, or `database_unavailable` at once while not connected. */
  require(): MongoAdapters {
    if (this.adapters === undefined) throw new DomainError('database_unavailable', 'The database is not connected yet.');
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
      let client: MongoClient | undefined;
      try {
        client = new MongoClient(this.uri, mongoClientOptions(this.options.timeoutMs ?? DEFAULT_MONGODB_TIMEOUT_MS));
        this.client = client;
        await client.connect();
        const deployment = await deploymentOn(client);
        const { db, raised } = durableDb(client, deployment);
        for (const note of raised) this.logger.warn({}, note);
        this.adapters = await createMongoAdapters({ db });
        this.logger.info({ database: db.databaseName, attempt, replicated: deployment.replicated }, 'store: connected to MongoDB');
        return this.adapters;
      } catch (error) {
        await client?.close().catch(() => undefined);
        if (this.stopped) throw new Error('the MongoDB connection was stopped');
        const failure = classifyStartError(error);
        if (failure.permanent) {
          this.logger.error({ err: error, attempt }, 'store: MongoDB refused the store for good; not retrying');
          throw ConfigError.of('MONGODB_URI', `MONGODB_URI: MongoDB refuses the store, and retrying will not change that: ${failure.reason}`);
        }
        // An index build that cannot finish (a majority of voting members down) is said as such.
        const why = error instanceof IndexBuildError ? error.message : 'MongoDB is not reachable yet';
        this.logger.warn({ err: error, attempt, retry_in_ms: delay }, `store: ${why}; retrying`);
        await new Promise((resolve) => setTimeout(resolve, delay).unref());
        delay = Math.min(delay * 2, this.options.maxRetryDelayMs ?? 10_000);
      }
    }
  }
}

/** Every method of a port, named once: the compiler refuses a list that leaves one out. */
export type EveryMethod<T> = { readonly [K in keyof T]-?: true };

/**
 * A port whose methods go to the connected adapter, or fail with `database_unavailable` while there is
 * none. The methods are listed, not guessed: a proxy answering every property would look like a
 * thenable or a disposable to whoever inspects it. The list is an object with one key per method of
 * the port, so a method added to a port cannot be forgotten here (a forgotten one was: takeOver,
 * complete and abandon of the Idempotency-Key protocol, and findOrder, were missing in mongo mode).
 */
export function deferredPort<T extends object>(pick: () => T, methods: EveryMethod<T>): T {
  const port: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of Object.keys(methods)) {
    port[method] = async (...args: unknown[]) => {
      const target = pick() as Record<string, (...a: unknown[]) => Promise<unknown>>;
      return target[method]!(...args);
    };
  }
  return port as T;
}
