/**
 * The MongoDB database's connection: a RetryingDatabaseConnection (database-connection.ts) whose
 * attempt connects, raises the durability MONGODB_URI asks for where it is too weak, and makes the
 * adapters (indexes built). What no retry changes (adapters-mongo's mongoStartError) stops the
 * process naming MONGODB_URI.
 *
 * Every operation runs with the settings of adapters-mongo's client-settings.ts: each stage bounded by
 * MONGODB_TIMEOUT_MS, majority-acknowledged journaled writes, primary majority reads.
 *
 * A fresh client per attempt: the driver leaves a client whose first connect failed unusable.
 */
import { createMongoAdapters, DEFAULT_MONGODB_TIMEOUT_MS, deploymentOn, durableDb, mongoClientOptions, mongoStartError, type MongoAdapters } from '@storefront/adapters-mongo';
import { MongoClient } from 'mongodb';
import { ConfigError } from './config.js';
import { RetryingDatabaseConnection } from './database-connection.js';
import type { Logger } from './logger.js';

export interface MongoConnectionOptions {
  /** The bound of every stage of an operation (MONGODB_TIMEOUT_MS). Default 2 s. */
  readonly timeoutMs?: number;
  /** Longest pause between connection attempts. Default 10 s. */
  readonly maxRetryDelayMs?: number;
}

export class MongoDatabaseConnection extends RetryingDatabaseConnection<MongoAdapters> {
  constructor(uri: string, logger: Logger, options: MongoConnectionOptions = {}) {
    let client: MongoClient | undefined;
    super({
      what: 'MongoDB',
      logger,
      attempt: async (attempt) => {
        const attempting = new MongoClient(uri, mongoClientOptions(options.timeoutMs ?? DEFAULT_MONGODB_TIMEOUT_MS));
        client = attempting;
        try {
          await attempting.connect();
          const deployment = await deploymentOn(attempting);
          const { db, raised } = durableDb(attempting, deployment);
          for (const note of raised) logger.warn({}, note);
          const adapters = await createMongoAdapters({ db });
          logger.info({ database: db.databaseName, attempt, replicated: deployment.replicated }, 'store: connected to MongoDB');
          return adapters;
        } catch (error) {
          await attempting.close().catch(() => undefined);
          throw error;
        }
      },
      permanent: (error) => {
        const failure = mongoStartError(error);
        return failure.fatal ? ConfigError.of('MONGODB_URI', `MONGODB_URI: MongoDB refuses the store, and retrying will not change that: ${failure.reason}`) : undefined;
      },
      retrying: (error) => mongoStartError(error).reason,
      close: async () => client?.close(),
      ...(options.maxRetryDelayMs === undefined ? {} : { maxRetryDelayMs: options.maxRetryDelayMs }),
    });
  }
}

/** Every method of a port, named once: the compiler refuses a list that leaves one out. */
export type EveryMethod<T> = { readonly [K in keyof T]-?: true };

/**
 * A port whose methods go to the connected adapter, or fail with `database_unavailable` while
 * there is none. The methods are listed, not guessed: a proxy answering every property would look
 * like a thenable or a disposable to whoever inspects it. The list is an object with one key per
 * method of the port, so a method added to a port cannot be forgotten here.
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
