import type { Session } from './session.js';

/** Port: login sessions and their (hashed) refresh tokens. */
export interface SessionStore {
  create(session: Session): Promise<void>;
  findById(sessionId: string): Promise<Session | null>;
  /**
   * Compare-and-swap of the refresh token: replaces `expectedHash` by `nextHash` (the old one joins
   * `previousTokenHashes`) only if it is still current. Returns false when another rotation won.
   */
  rotate(sessionId: string, expectedHash: string, nextHash: string, expiresAt: Date): Promise<boolean>;
  /** Revokes the session; idempotent. */
  revoke(sessionId: string, at: Date): Promise<void>;
  /** Revokes every live session of the customer (password reset, erasure); idempotent. */
  revokeAllOf(customerId: string, at: Date): Promise<void>;
}
