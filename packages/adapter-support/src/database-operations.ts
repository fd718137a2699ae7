/**
 * How a database adapter turns its driver's failures into domain errors, written once for every
 * database: an outage (unreachable, too slow, going away) is `database_unavailable`, with the
 * driver's error kept as `cause` for the logs and never in the message (which may reach a client);
 * anything else is rethrown as it is (a domain error, or a failure only the repository that hit it
 * can read, such as a duplicate key). Each adapter says what an outage looks like for its driver.
 */
import { DomainError, isDomainError } from '@storefront/domain';

/** True when `error` says the database is unreachable or too slow, whatever the operation. */
export type OutageClassifier = (error: unknown) => boolean;

/** The two ways a database adapter maps its failures, bound to its driver's outage classifier. */
export interface DatabaseOperations {
  /** The domain error that `error` stands for, or `error` itself when it has no domain meaning. */
  toDomainError(error: unknown): unknown;
  /** Runs one repository operation and rethrows what it fails with as a domain error where one fits. */
  databaseOperation<T>(operation: () => Promise<T>): Promise<T>;
}

/** @example `export const { databaseOperation, toDomainError } = databaseOperations(isDatabaseUnavailable);` */
export function databaseOperations(isOutage: OutageClassifier): DatabaseOperations {
  const toDomainError = (error: unknown): unknown => {
    if (isDomainError(error)) return error;
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
