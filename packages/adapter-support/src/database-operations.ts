/**
 * How a database adapter turns its driver's failures into domain errors, written once for every
 * database: an outage (unreachable, too slow, going away) is `database_unavailable`, with the
 * driver's error kept as `cause` for the logs and never in the message (which may reach a client);
 * a pool with no free connection in time (the database answers, every connection is busy) is
 * `service_unavailable` with a retry hint, as other "too many waiting" refusals are; anything else
 * is rethrown as it is (a domain error, or a failure only the repository that hit it can read, such
 * as a duplicate key). Each adapter says what an outage and a busy pool look like for its driver.
 */
import { DomainError, isDomainError } from '@storefront/domain';

/** True when `error` says the database is unreachable or too slow, whatever the operation. */
export type OutageClassifier = (error: unknown) => boolean;

/** True when `error` says no pooled connection came free in time: the request never reached the database. */
export type BusyPoolClassifier = (error: unknown) => boolean;

/** The `Retry-After` a request refused for a busy pool is given: the pool's wait is seconds at most. */
const BUSY_POOL_RETRY_AFTER_SECONDS = 1;

/** The two ways a database adapter maps its failures, bound to its driver's outage classifier. */
export interface DatabaseOperations {
  /** The domain error that `error` stands for, or `error` itself when it has no domain meaning. */
  toDomainError(error: unknown): unknown;
  /** Runs one repository operation and rethrows what it fails with as a domain error where one fits. */
  databaseOperation<T>(operation: () => Promise<T>): Promise<T>;
}

/** @example `export const { databaseOperation, toDomainError } = databaseOperations(isDatabaseUnavailable, isPoolBusy);` */
export function databaseOperations(isOutage: OutageClassifier, isBusy: BusyPoolClassifier = () => false): DatabaseOperations {
  const toDomainError = (error: unknown): unknown => {
    if (isDomainError(error)) return error;
    if (isBusy(error)) {
      return new DomainError('service_unavailable', 'The database is busy.', { cause: error, retryAfterSeconds: BUSY_POOL_RETRY_AFTER_SECONDS });
    }
    if (isOutage(error)) return new DomainError('database_unavailable', 'The database is unavailable.', { cause: error });
    return error;
  };
  return {
    toDomainError,
    async databaseOperation<T>(operation: () => Promise<T>): Promise<T> {
      try {
        return await operation();
      } catch (error) {
        throw toDomainError(error);
      }
    },
  };
}
