/**
 * How this service talks to PostgreSQL, whatever DATABASE_URL says: a pool of at most PG_POOL_MAX
 * connections, and PG_TIMEOUT_MS bounding the wait for a connection (checkout and connect) and
 * every statement (server-side `statement_timeout`; a client-side read time-out a little later for
 * a server or network that stops answering altogether). See docs/decisions.md, "PostgreSQL pool".
 */
import type { PoolConfig } from 'pg';

export const DEFAULT_PG_POOL_MAX = 10;
export const DEFAULT_PG_TIMEOUT_MS = 2_000;
/** How much later than the server's statement_timeout the client gives up on an answer. */
const CLIENT_GRACE_MS = 1_000;

export interface PostgresSettings {
  readonly url: string;
  readonly poolMax: number;
  readonly timeoutMs: number;
}

export function poolConfig({ url, poolMax, timeoutMs }: PostgresSettings): PoolConfig {
  return {
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + CLIENT_GRACE_MS,
    // A transaction left open by a stalled request must not hold its row locks for longer.
    idle_in_transaction_session_timeout: timeoutMs + CLIENT_GRACE_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: 'storefront',
  };
}

/**
 * Why DATABASE_URL cannot be used, or undefined. Checked at start so that a typo stops the process
 * naming the variable; never echoes the value (it may hold a password).
 */
export function databaseUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL; expected postgres://user:password@host:5432/database';
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `it must start with postgres:// or postgresql://, not ${url.protocol}//`;
  // A Unix socket is named by ?host=/run/postgresql and no host in the authority.
  if (url.hostname === '' && !url.searchParams.has('host')) return 'it names no host; expected postgres://user:password@host:5432/database';
  // Without a database the driver would connect to the one named like the user: name it.
  if (decodeURIComponent(url.pathname.slice(1)) === '') return 'it names no database; expected postgres://user:password@host:5432/database';
  return undefined;
}

/** The URL without its password, for logs and messages. */
export function redactDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '(not a URL)';
  }
}
