/**
 * Login sessions in MongoDB. Rotation is one conditional update (compare-and-swap on the current
 * hash), so of concurrent rotations of one token exactly one matches; the server serialises
 * updates of a document and re-checks the filter for the losers. Expired sessions are removed by
 * the TTL index; an expired and a missing session are refused alike, so that changes no answer.
 */
import type { SessionStore } from '@storefront/domain';
import type { Session } from '@storefront/domain/adapter-kit';
import { DomainError } from '@storefront/domain';
import type { Collection } from 'mongodb';
import { toSession, toSessionDocument, type SessionDocument } from './session-mapper.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export interface MongoSessionStoreOptions {
  /**
   * Rotated token hashes kept per session for reuse detection (the newest ones). A token older than
   * this many rotations is still refused, it just no longer revokes the session.
   */
  readonly maxPreviousTokenHashes?: number | undefined;
}

export class MongoSessionStore implements SessionStore {
  private readonly maxPrevious: number;

  constructor(
    private readonly sessions: Collection<SessionDocument>,
    options: MongoSessionStoreOptions = {},
  ) {
    this.maxPrevious = options.maxPreviousTokenHashes ?? 100;
  }

  create(session: Session): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.sessions.insertOne(toSessionDocument(session));
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        throw new DomainError('conflict', `A session with id ${session.sessionId} already exists.`, { cause: error });
      }
    });
  }

  findById(sessionId: string): Promise<Session | null> {
    return databaseOperation(async () => {
      const document = await this.sessions.findOne({ _id: sessionId });
      return document === null ? null : toSession(document);
    });
  }

  rotate(sessionId: string, expectedHash: string, nextHash: string, expiresAt: Date): Promise<boolean> {
    return databaseOperation(async () => {
      const result = await this.sessions.updateOne(
        { _id: sessionId, refreshTokenHash: expectedHash, revokedAt: null },
        {
          $set: { refreshTokenHash: nextHash, expiresAt: new Date(expiresAt.getTime()) },
          $push: { previousTokenHashes: { $each: [expectedHash], $slice: -this.maxPrevious } },
        },
      );
      return result.matchedCount === 1;
    });
  }

  revoke(sessionId: string, at: Date): Promise<void> {
    return databaseOperation(async () => {
      // Matches only an unrevoked session: the first revocation time stands.
      await this.sessions.updateOne({ _id: sessionId, revokedAt: null }, { $set: { revokedAt: new Date(at.getTime()) } });
    });
  }

  revokeAllOf(customerId: string, at: Date): Promise<void> {
    return databaseOperation(async () => {
      // One update, read through sessions_by_customer; `revokedAt: null` keeps the first revocation
      // time of a session already revoked. Each document is updated atomically; a session created
      // during the call may be missed, as it would be by a call made a moment earlier.
      await this.sessions.updateMany({ customerId, revokedAt: null }, { $set: { revokedAt: new Date(at.getTime()) } });
    });
  }
}
