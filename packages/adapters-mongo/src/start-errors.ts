/**
 * Which failures to connect to MongoDB and prepare the database are worth retrying (the server is not
 * up yet, a primary is being elected, the network dropped) and which fail the same way on every
 * attempt (a wrong password, a database name MongoDB refuses, an index that exists with other
 * options, a URI the driver cannot read). The app's start-up retries the first kind and stops the
 * process on the second, naming MONGODB_URI. Anything not known to be permanent is retried.
 * The same shape as adapters-postgres' postgresStartError: `reason` is a sentence for the operator.
 */
import { isDomainError } from '@storefront/domain';
import {
  MongoCompatibilityError,
  MongoError,
  MongoErrorLabel,
  MongoInvalidArgumentError,
  MongoMissingCredentialsError,
  MongoMissingDependencyError,
  MongoParseError,
  MongoServerError,
  MongoServerSelectionError,
} from 'mongodb';
import { IndexBuildError } from './collections.js';

export interface StartFailure {
  /** True when retrying with the same settings cannot help. */
  readonly fatal: boolean;
  /** What to fix when fatal, else why the start-up is retried. */
  readonly reason: string;
}

const AUTH = 'check the user name, password, authSource and roles in MONGODB_URI';
const INDEX = "an index of the store exists with other options: drop that index (the service creates it again) or use another database in MONGODB_URI";
const OPTIONS = 'check the options of MONGODB_URI (w, readConcernLevel, …) against this deployment';

/** Server error codes (MongoDB's error_codes.yml) that no retry changes, and what to do about them. */
const PERMANENT_CODES: ReadonlyMap<number, string> = new Map([
  [2, OPTIONS], // BadValue, e.g. w > 1 on a standalone server
  [9, OPTIONS], // FailedToParse
  [13, AUTH], // Unauthorized: the user lacks a role on this database
  [18, AUTH], // AuthenticationFailed
  [67, INDEX], // CannotCreateIndex
  [73, 'the database name in MONGODB_URI is not one MongoDB accepts'], // InvalidNamespace
  [79, OPTIONS], // UnknownReplWriteConcern: a w tag the replica set does not define
  [85, INDEX], // IndexOptionsConflict
  [86, INDEX], // IndexKeySpecsConflict
  [100, OPTIONS], // UnsatisfiableWriteConcern
  [148, 'this deployment has majority reads disabled (enableMajorityReadConcern=false); the store needs them'], // ReadConcernMajorityNotEnabled
  [166, 'a collection of the store is a view in this database: use another database in MONGODB_URI'], // CommandNotSupportedOnView
  [197, INDEX], // InvalidIndexSpecificationOption
]);

/**
 * Labels by which the server or driver says "try again", whatever the code. (Not ResetPool or
 * HandshakeError: the driver puts those on a failed login too; they say what it did, not what to do.)
 */
const RETRY_LABELS = [
  MongoErrorLabel.RetryableWriteError,
  MongoErrorLabel.TransientTransactionError,
  MongoErrorLabel.PoolRequestedRetry,
  MongoErrorLabel.RetryableError,
  MongoErrorLabel.SystemOverloadedError,
];

/** Driver errors raised before or instead of any server answer that the same settings raise again. */
const PERMANENT_DRIVER_ERRORS = [MongoParseError, MongoInvalidArgumentError, MongoMissingCredentialsError, MongoMissingDependencyError];

/** What a failure to connect to MongoDB or prepare the database means for the start-up. */
export function mongoStartError(error: unknown): StartFailure {
  const reason = permanentReason(error);
  if (reason !== undefined) return { fatal: true, reason };
  // An index build that cannot finish (a majority of voting members down) is said as such.
  return { fatal: false, reason: error instanceof IndexBuildError ? error.message : 'MongoDB is not reachable yet' };
}

/** What to fix when `error` fails the same way on every attempt, else undefined. */
function permanentReason(error: unknown): string | undefined {
  // The adapters wrap an unreachable database as database_unavailable, and a failed index build as
  // IndexBuildError (which names the index); what counts is the driver's error.
  if ((isDomainError(error) || error instanceof IndexBuildError) && error.cause !== undefined) {
    const reason = permanentReason(error.cause);
    return reason !== undefined && error instanceof IndexBuildError ? `${error.message.split(': ')[0]}: ${reason}` : reason;
  }
  if (!(error instanceof MongoError)) return undefined;
  if (RETRY_LABELS.some((label) => error.hasErrorLabel(label))) return undefined;
  if (error instanceof MongoCompatibilityError) return sentence(error.message, 'use a MongoDB server version this driver supports');
  const driverError = PERMANENT_DRIVER_ERRORS.find((kind) => error instanceof kind);
  if (driverError !== undefined) return sentence(`${error.name}: ${error.message}`, OPTIONS);
  // Server selection times out with what the monitor last saw as its cause: a refused connection
  // (retry) or, say, a server too old for this driver (permanent).
  if (error instanceof MongoServerSelectionError) return error.cause instanceof MongoError ? permanentReason(error.cause) : undefined;
  if (error instanceof MongoServerError && typeof error.code === 'number') {
    // Atlas answers a failed login with its own code 8000 (AtlasError) and "bad auth" in the message.
    const hint = PERMANENT_CODES.get(error.code) ?? (error.code === 8000 && /\bauth/i.test(error.message) ? AUTH : undefined);
    if (hint !== undefined) return sentence(`${error.codeName ?? 'MongoServerError'} (code ${error.code}): ${error.message}`, hint);
  }
  return undefined;
}

function sentence(what: string, hint: string): string {
  return `${what.length > 300 ? `${what.slice(0, 300)}…` : what}; ${hint}`;
}
