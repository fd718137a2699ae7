/**
 * The one place where node-postgres errors become domain errors: unreachable, dropped, shutting
 * down or too late (statement_timeout) is `database_unavailable`, the driver's error kept as
 * `cause` for the logs, never in the message; a pool whose every connection stayed busy for
 * PG_TIMEOUT_MS is `service_unavailable`. Unique violations are left to the repository that hit
 * them: only it knows which rule a duplicate breaks.
 * SQLSTATE classes: https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
import { databaseOperations } from '@storefront/adapter-support';

/** Classes of SQLSTATE that say "the server is unreachable, overloaded or going away". */
const UNAVAILABLE_CLASSES: readonly string[] = [
  '08', // connection_exception
  '53', // insufficient_resources (too_many_connections, disk_full, out_of_memory)
  '58', // system_error (io_error)
];

/** Single SQLSTATEs with that meaning outside those classes. */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  '57014', // query_canceled: statement_timeout (PG_TIMEOUT_MS) fired
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovery)
  '57P05', // idle_session_timeout
  '55P03', // lock_not_available: lock_timeout
  '40001', // serialization_failure: retrying is the caller's choice, the database was busy
  '40P01', // deadlock_detected
  '25P03', // idle_in_transaction_session_timeout
]);

/** Socket errors of Node (the server is down, unreachable or reset the connection). */
const NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * pg-pool's error for a checkout that waited `connectionTimeoutMillis` in its queue: every
 * connection was busy (a new connection that cannot be opened in time is "Connection terminated due
 * to connection timeout"), pg-pool/index.js `connect`.
 */
const POOL_QUEUE_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * node-postgres and pg-pool report a lost or never-made connection with plain Errors and no code;
 * these are their messages (pg/lib/client.js, pg-pool/index.js), matched at the start. A busy pool
 * is here too: at start-up it is worth retrying like an outage; in a request `isPoolBusy` comes first.
 */
const DRIVER_MESSAGES: readonly string[] = [
  'Connection terminated',
  POOL_QUEUE_TIMEOUT,
  'timeout expired',
  'Query read timeout',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for errors that say the database is unreachable or too slow, whatever the operation. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = codeOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_CODES.has(code)) return true;
    if (code.length === 5 && UNAVAILABLE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (DRIVER_MESSAGES.some((message) => error.message.startsWith(message))) return true;
  // A connection that failed several ways at once (IPv4 and IPv6) reports an AggregateError.
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return error.cause !== undefined && error.cause !== error && isDatabaseUnavailable(error.cause);
}

/** True when no pooled connection came free within PG_TIMEOUT_MS: the statement never reached the server. */
export function isPoolBusy(error: unknown): boolean {
  return error instanceof Error && codeOf(error) === undefined && error.message === POOL_QUEUE_TIMEOUT;
}

/**
 * `database_unavailable` for what isDatabaseUnavailable says is an outage, `service_unavailable` for
 * a busy pool (the mapping every database adapter shares).
 */
export const { databaseOperation, toDomainError } = databaseOperations(isDatabaseUnavailable, isPoolBusy);

/** A unique_violation (23505), optionally only one of the constraint or unique index `constraint`. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (codeOf(error) !== '23505') return false;
  return constraint === undefined || (error as { constraint?: unknown }).constraint === constraint;
}

/** SQLSTATEs at start-up that no retry will cure: the configuration is wrong. */
const FATAL_START_CODES: ReadonlyMap<string, string> = new Map([
  ['28P01', 'the password was refused'],
  ['28000', 'the role may not connect (invalid_authorization_specification)'],
  ['3D000', 'the database does not exist'],
  ['42501', 'the role lacks a privilege the schema needs'],
  ['3F000', 'the schema does not exist'],
]);

/**
 * What a start-up failure (connecting, migrating) means for the process: `fatal` when retrying
 * cannot help (bad credentials, a missing database, a malformed URL, a schema newer than the code),
 * else a network or availability problem worth retrying. `reason` is a sentence for the operator,
 * without the password.
 */
export function postgresStartError(error: unknown): { fatal: boolean; reason: string } {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof Error && (error.name === 'SchemaTooNewError' || error.name === 'SchemaNotMigratedError')) return { fatal: true, reason: message };
  if (code !== undefined && FATAL_START_CODES.has(code)) return { fatal: true, reason: `${FATAL_START_CODES.get(code)!} (${code}: ${message})` };
  if (code !== undefined && code.startsWith('28')) return { fatal: true, reason: `authentication failed (${code}: ${message})` };
  if (isDatabaseUnavailable(error)) return { fatal: false, reason: `the server cannot be reached (${code ?? message})` };
  // Anything else (an unparsable URL, SSL refused, an unknown host name is ENOTFOUND: retried above)
  // is a configuration the operator must fix.
  return { fatal: true, reason: message };
}
