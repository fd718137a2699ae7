/**
 * Login sessions in PostgreSQL. Rotation is one conditional UPDATE (compare-and-swap on the current
 * hash): the row lock makes concurrent rotations of one token queue, and each loser re-checks the
 * condition against the winner's row and matches nothing. Sessions long expired are swept a few at
 * a time by each new login, so the table does not grow with every session ever made.
 */
import type { SessionStore } from '@storefront/domain';
import type { Session } from '@storefront/domain/adapter-kit';
import { DomainError } from '@storefront/domain';
import type pg from 'pg';
import { copyDate, SESSION_COLUMNS, toSession, type SessionRow } from './account-mappers.js';
import { isUniqueViolation, databaseOperation } from './database-errors.js';
import { expirySweep } from './expiry-sweep.js';

export interface PostgresSessionStoreOptions {
  /**
   * Rotated token hashes kept per session for reuse detection (the newest ones). A token older than
   * this many rotations is still refused, it just no longer revokes the session.
   */
  readonly maxPreviousTokenHashes?: number | undefined;
}

/** Sessions a day past their expiry (a late reuse is still recognised meanwhile), 20 a new session. */
const SWEEP_EXPIRED_SESSIONS = expirySweep('sessions', "expires_at < now() - interval '1 day'", 20).text;

export class PostgresSessionStore implements SessionStore {
  private readonly maxPrevious: number;

  constructor(
    private readonly pool: pg.Pool,
    options: PostgresSessionStoreOptions = {},
  ) {
    this.maxPrevious = options.maxPreviousTokenHashes ?? 100;
  }

  create(session: Session): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.pool.query(
          `WITH ${SWEEP_EXPIRED_SESSIONS}
           INSERT INTO sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [
            session.sessionId,
            session.customerId,
            session.refreshTokenHash,
            [...session.previousTokenHashes],
            copyDate(session.createdAt),
            copyDate(session.expiresAt),
            session.revokedAt === null ? null : copyDate(session.revokedAt),
          ],
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        throw new DomainError('conflict', `A session with id ${session.sessionId} already exists.`, { cause: error });
      }
    });
  }

  findById(sessionId: string): Promise<Session | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<SessionRow>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE session_id = $1`, [sessionId]);
      const row = result.rows[0];
      return row === undefined ? null : toSession(row);
    });
  }

  rotate(sessionId: string, expectedHash: string, nextHash: string, expiresAt: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.pool.query(
        `UPDATE sessions
            SET refresh_token_hash = $3,
                expires_at = $4,
                previous_token_hashes = (array_append(previous_token_hashes, $2::text))[greatest(1, cardinality(previous_token_hashes) + 2 - $5::int):]
          WHERE session_id = $1 AND refresh_token_hash = $2 AND revoked_at IS NULL`,
        [sessionId, expectedHash, nextHash, copyDate(expiresAt), this.maxPrevious],
      );
      return result.rowCount === 1;
    });
  }

  revoke(sessionId: string, at: Date): Promise<void> {
    return databaseOperation(async () => {
      // Matches only an unrevoked session: the first revocation time stands.
      await this.pool.query('UPDATE sessions SET revoked_at = $2 WHERE session_id = $1 AND revoked_at IS NULL', [sessionId, copyDate(at)]);
    });
  }

  revokeAllOf(customerId: string, at: Date): Promise<void> {
    return databaseOperation(async () => {
      // Read through sessions_live_by_customer (only unrevoked sessions are in it).
      await this.pool.query('UPDATE sessions SET revoked_at = $2 WHERE customer_id = $1 AND revoked_at IS NULL', [customerId, copyDate(at)]);
    });
  }
}
