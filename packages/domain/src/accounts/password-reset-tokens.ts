/** A password reset token as stored: only its SHA-256, never the token itself. */
export interface PasswordResetToken {
  readonly tokenHash: string;
  readonly customerId: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** Port: password reset tokens, single-use and short-lived. */
export interface PasswordResetTokenStore {
  save(token: PasswordResetToken): Promise<void>;
  /** The token with this hash if it exists and `expiresAt` is after `now`; does not spend it. */
  find(tokenHash: string, now: Date): Promise<PasswordResetToken | null>;
  /**
   * Spends the token: removes it and returns it, atomically, if it exists and has not expired at
   * `now`; else null. Of two concurrent calls with one hash, at most one gets the token.
   */
  consume(tokenHash: string, now: Date): Promise<PasswordResetToken | null>;
  /** Removes every token of the customer (a reset done, an account erased); idempotent. */
  deleteAllOf(customerId: string): Promise<void>;
}
