/** Sessions as stored: `_id` = session id; only hashes of refresh tokens, never the tokens. */
import type { Session } from '@storefront/domain/adapter-kit';

export interface SessionDocument {
  _id: string;
  customerId: string;
  refreshTokenHash: string;
  previousTokenHashes: string[];
  createdAt: Date;
  /** Also what the TTL index removes the session by. */
  expiresAt: Date;
  revokedAt: Date | null;
}

export function toSessionDocument(session: Session): SessionDocument {
  return {
    _id: session.sessionId,
    customerId: session.customerId,
    refreshTokenHash: session.refreshTokenHash,
    previousTokenHashes: [...session.previousTokenHashes],
    createdAt: new Date(session.createdAt.getTime()),
    expiresAt: new Date(session.expiresAt.getTime()),
    revokedAt: session.revokedAt === null ? null : new Date(session.revokedAt.getTime()),
  };
}

export function toSession(document: SessionDocument): Session {
  return {
    sessionId: document._id,
    customerId: document.customerId,
    refreshTokenHash: document.refreshTokenHash,
    previousTokenHashes: document.previousTokenHashes,
    createdAt: document.createdAt,
    expiresAt: document.expiresAt,
    revokedAt: document.revokedAt ?? null,
  };
}
