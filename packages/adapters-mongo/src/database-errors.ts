/**
 * The one place where driver errors become domain errors, used by every repository of this
 * package. The domain and the HTTP adapter know nothing of MongoDB: a database that cannot be reached,
 * or answers too late, is `database_unavailable` with the driver's error kept as `cause` for the logs
 * and never in the message (which may reach a client). Duplicate keys are left to the repository
 * that hit them: only it knows which unique rule a duplicate breaks.
 */
import { databaseOperations } from '@storefront/adapter-support';
import {
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoError,
  MongoErrorLabel,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoStalePrimaryError,
  MongoTopologyClosedError,
  type OneOrMore,
  type WriteError,
} from 'mongodb';

/** Server error codes that mean "no usable primary, or no answer in time", not "bad request". */
const UNAVAILABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  50, // MaxTimeMSExpired
  64, // WriteConcernTimeout (wtimeoutMS from the URI): the write may not be durable yet
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

/**
 * Driver errors that the driver's public entry point does not export (mongodb/src/cmap/errors.ts),
 * known by their `name`: a connection pool that had no free connection within waitQueueTimeoutMS,
 * and one closed under the operation (the client closing).
 */
const UNAVAILABLE_UNEXPORTED_ERRORS: ReadonlySet<string> = new Set(['MongoWaitQueueTimeoutError', 'MongoPoolClosedError']);

const DUPLICATE_KEY = 11000;

/** True for errors that say the database is unreachable or too slow, whatever the operation. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof MongoError)) return false;
  if (error instanceof MongoBulkWriteError) return isBulkWriteUnavailable(error);
  if (
    error instanceof MongoNetworkError || // MongoNetworkTimeoutError and the pool's PoolClearedError included
    error instanceof MongoServerSelectionError ||
    error instanceof MongoOperationTimeoutError ||
    error instanceof MongoNotConnectedError ||
    error instanceof MongoTopologyClosedError ||
    error instanceof MongoClientClosedError ||
    error instanceof MongoServerClosedError ||
    error instanceof MongoStalePrimaryError ||
    UNAVAILABLE_UNEXPORTED_ERRORS.has(error.name)
  ) {
    return true;
  }
  if (typeof error.code === 'number' && UNAVAILABLE_SERVER_CODES.has(error.code)) return true;
  // The driver labels network failures and lost primaries this way once its own retry gave up.
  return error.hasErrorLabel(MongoErrorLabel.RetryableWriteError);
}

/**
 * bulkWrite reports every failure as a MongoBulkWriteError (mongodb/src/bulk/common.ts): a driver
 * error that stopped a batch (a lost connection, no server to select) is kept as its
 * `errorResponse`; a write concern error as `err` (or its code); the writes the server refused as
 * `writeErrors`, one of which may be a primary stepping down mid-batch.
 */
function isBulkWriteUnavailable(error: MongoBulkWriteError): boolean {
  const wrapped: unknown = error.errorResponse;
  if (wrapped instanceof MongoError) return isDatabaseUnavailable(wrapped);
  const codes = [error.code, error.err?.code, ...bulkWriteErrors(error).map((writeError) => writeError.code)];
  if (codes.some((code) => typeof code === 'number' && UNAVAILABLE_SERVER_CODES.has(code))) return true;
  return error.hasErrorLabel(MongoErrorLabel.RetryableWriteError);
}

function bulkWriteErrors(error: MongoBulkWriteError): readonly WriteError[] {
  const { writeErrors } = error;
  return isWriteErrorList(writeErrors) ? writeErrors : [writeErrors];
}

function isWriteErrorList(errors: OneOrMore<WriteError>): errors is readonly WriteError[] {
  return Array.isArray(errors);
}

/**
 * True when no pooled connection came free within waitQueueTimeoutMS (`MongoWaitQueueTimeoutError`,
 * not exported by the driver): every connection was busy, the operation never reached the server.
 */
export function isPoolBusy(error: unknown): boolean {
  return error instanceof MongoError && error.name === 'MongoWaitQueueTimeoutError';
}

/**
 * `database_unavailable` for what isDatabaseUnavailable says is an outage, `service_unavailable` for
 * a busy pool (the mapping every database adapter shares).
 */
export const { databaseOperation, toDomainError } = databaseOperations(isDatabaseUnavailable, isPoolBusy);

/** A duplicate key error (E11000), optionally only one that broke the unique index `indexName`. */
export function isDuplicateKey(error: unknown, indexName?: string): error is MongoServerError {
  if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY) return false;
  // A bulk write is a duplicate only when every write it lost was one: anything else must surface.
  if (error instanceof MongoBulkWriteError && (error.err !== undefined || !bulkWriteErrors(error).every((e) => e.code === DUPLICATE_KEY))) return false;
  // The server names the index in the message ("… index: <name> dup key: …"); keyPattern alone
  // cannot tell two indexes on the same fields apart.
  return indexName === undefined || error.message.includes(`index: ${indexName} `);
}
