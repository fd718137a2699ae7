/**
 * A login session. The refresh token is never stored: only its SHA-256. Hashes of rotated
 * tokens are kept so that presenting one again is recognised as reuse (RFC 9700 §4.14.2).
 */
export interface Session {
  readonly sessionId: string;
  readonly customerId: string;
  readonly refreshTokenHash: string;
  readonly previousTokenHashes: readonly string[];
  readonly createdAt: Date;
  /** When the current refresh token stops working. */
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

export function isSessionActive(session: Session, now: Date): boolean {
  return session.revokedAt === null && session.expiresAt.getTime() > now.getTime();
}
