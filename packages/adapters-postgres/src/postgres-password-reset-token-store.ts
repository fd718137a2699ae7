/**
 * Password reset tokens in PostgreSQL, stored by their SHA-256 only. Spending one is a single
 * DELETE … RETURNING filtered on the hash and the expiry: a row is deleted once, so of concurrent
 * calls with one hash at most one gets it back. Expired tokens are swept a few at a time by each
 * new one.
 */
import type { PasswordResetTokenStore } from '@storefront/domain';
import type { PasswordResetToken } from '@storefront/domain/adapter-kit';
import { DomainError } from '@storefront/domain';
import type pg from 'pg';
import { copyDate, RESET_TOKEN_COLUMNS, toResetToken, type ResetTokenRow } from './account-mappers.js';
import { isUniqueViolation, databaseOperation } from './database-errors.js';
import { expirySweep } from './expiry-sweep.js';

/** Tokens an hour past their expiry, 20 a new token. */
const SWEEP_EXPIRED_TOKENS = expirySweep('password_reset_tokens', "expires_at < now() - interval '1 hour'", 20).text;

export class PostgresPasswordResetTokenStore implements PasswordResetTokenStore {
  constructor(private readonly pool: pg.Pool) {}

  save(token: PasswordResetToken): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.pool.query(
          `WITH ${SWEEP_EXPIRED_TOKENS}
           INSERT INTO password_reset_tokens (${RESET_TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4)`,
          [token.tokenHash, token.customerId, copyDate(token.createdAt), copyDate(token.expiresAt)],
        );
      } catch (error) {
        // Two random tokens with one SHA-256: a bug upstream, never overwrite the other's token.
        if (!isUniqueViolation(error)) throw error;
        throw new DomainError('conflict', 'A password reset token with this hash already exists.', { cause: error });
      }
    });
  }

  find(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    return this.one(`SELECT ${RESET_TOKEN_COLUMNS} FROM password_reset_tokens WHERE token_hash = $1 AND expires_at > $2`, tokenHash, now);
  }

  consume(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    return this.one(`DELETE FROM password_reset_tokens WHERE token_hash = $1 AND expires_at > $2 RETURNING ${RESET_TOKEN_COLUMNS}`, tokenHash, now);
  }

  deleteAllOf(customerId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.pool.query('DELETE FROM password_reset_tokens WHERE customer_id = $1', [customerId]);
    });
  }

  private one(sql: string, tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    return databaseOperation(async () => {
      const result = await this.pool.query<ResetTokenRow>(sql, [tokenHash, copyDate(now)]);
      const row = result.rows[0];
      return row === undefined ? null : toResetToken(row);
    });
  }
}
