/**
 * The one place where driver errors become domain errors, used by every repository of this
 * package. The domain and the HTTP adapter know nothing of MongoDB: a store that cannot be reached,
 * or answers too late, is `store_unavailable` with the driver's error kept as `cause` for the logs
 * and never in the message (which may reach a client). Duplicate keys are left to the repository
 * that hit them: only it knows which unique rule a duplicate breaks.
 */
import { DomainError, isDomainError } from '@storefront/domain';
import {
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

/** Server error codes that mean "no usable primary, or no answer in time", not "bad request". */
const UNAVAILABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);

const DUPLICATE_KEY = 11000;

/** True for errors that say the store is unreachable or too slow, whatever the operation. */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  if (
    error instanceof MongoNetworkError || // MongoNetworkTimeoutError included
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoServerClosedError
  ) {
    return true;
  }
  if (typeof error.code === 'number' && UNAVAILABLE_SERVER_CODES.has(error.code)) return true;
  // The driver labels network failures and lost primaries this way once its own retry gave up.
  return error.hasErrorLabel(MongoErrorLabel.RetryableWriteError);
}

/** The domain error that `error` stands for, or `error` itself when it has no domain meaning. */
export function toDomainError(error: unknown): unknown {
  if (isDomainError(error)) return error;
  if (isStoreUnavailable(error)) return new DomainError('store_unavailable', 'The store is unavailable.', { cause: error });
  return error;
}

/** Runs one repository operation and rethrows what it fails with as a domain error where one fits. */
export async function storeOperation<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toDomainError(error);
  }
}

/** A duplicate key error (E11000), optionally only one that broke the unique index `indexName`. */
export function isDuplicateKey(error: unknown, indexName?: string): error is MongoServerError {
  if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY) return false;
  // The server names the index in the message ("… index: <name> dup key: …"); keyPattern alone
  // cannot tell two indexes on the same fields apart.
  return indexName === undefined || error.message.includes(`index: ${indexName} `);
}
