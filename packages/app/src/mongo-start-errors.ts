/**
 * Which failures to connect to MongoDB and prepare the database are worth retrying (the server is not
 * up yet, a primary is being elected, the network dropped) and which fail the same way on every
 * attempt (a wrong password, a database name MongoDB refuses, an index that exists with other
 * options, a URI the driver cannot read). The start-up retries the first kind and stops the process
 * on the second, naming MONGODB_URI. Anything not known to be permanent is retried, as before.
 */
import { IndexBuildError } from '@storefront/adapters-mongo';
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

export type StartFailure = { readonly permanent: false } | { readonly permanent: true; readonly reason: string };

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

export function classifyStartError(error: unknown): StartFailure {
  // The adapters wrap an unreachable database as database_unavailable, and a failed index build as
  // IndexBuildError (which names the index); what counts is the driver's error.
  if ((isDomainError(error) || error instanceof IndexBuildError) && error.cause !== undefined) {
    const failure = classifyStartError(error.cause);
    return failure.permanent && error instanceof IndexBuildError ? { permanent: true, reason: `${error.message.split(': ')[0]}: ${failure.reason}` } : failure;
  }
  if (!(error instanceof MongoError)) return { permanent: false };
  if (RETRY_LABELS.some((label) => error.hasErrorLabel(label))) return { permanent: false };
  if (error instanceof MongoCompatibilityError) return permanent(error.message, 'use a MongoDB server version this driver supports');
  const driverError = PERMANENT_DRIVER_ERRORS.find((kind) => error instanceof kind);
  if (driverError !== undefined) return permanent(`${error.name}: ${error.message}`, OPTIONS);
  // Server selection times out with what the monitor last saw as its cause: a refused connection
  // (retry) or, say, a server too old for this driver (permanent).
  if (error instanceof MongoServerSelectionError) return error.cause instanceof MongoError ? classifyStartError(error.cause) : { permanent: false };
  if (error instanceof MongoServerError && typeof error.code === 'number') {
    // Atlas answers a failed login with its own code 8000 (AtlasError) and "bad auth" in the message.
    const hint = PERMANENT_CODES.get(error.code) ?? (error.code === 8000 && /\bauth/i.test(error.message) ? AUTH : undefined);
    if (hint !== undefined) return permanent(`${error.codeName ?? 'MongoServerError'} (code ${error.code}): ${error.message}`, hint);
  }
  return { permanent: false };
}

function permanent(what: string, hint: string): StartFailure {
  return { permanent: true, reason: `${what.length > 300 ? `${what.slice(0, 300)}…` : what}; ${hint}` };
}
