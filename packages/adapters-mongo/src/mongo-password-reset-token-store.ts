/**
 * Password reset tokens in MongoDB. Spending one is a single findOneAndDelete filtered on the hash
 * and the expiry: the server deletes a document once, so of concurrent calls with one hash at most
 * one gets it back (the driver, since v6, resolves to the document or null). The TTL index removes
 * expired tokens within about a minute; until then the `expiresAt > now` filter refuses them.
 */
import type { PasswordResetTokenStore } from '@storefront/domain';
import type { PasswordResetToken } from '@storefront/domain/adapter-kit';
import { DomainError } from '@storefront/domain';
import type { Collection } from 'mongodb';
import {
  toPasswordResetToken,
  toPasswordResetTokenDocument,
  type PasswordResetTokenDocument,
} from './password-reset-token-mapper.js';
import { isDuplicateKey, databaseOperation } from './database-errors.js';

export class MongoPasswordResetTokenStore implements PasswordResetTokenStore {
  constructor(private readonly tokens: Collection<PasswordResetTokenDocument>) {}

  save(token: PasswordResetToken): Promise<void> {
    return databaseOperation(async () => {
      try {
        await this.tokens.insertOne(toPasswordResetTokenDocument(token));
      } catch (error) {
        // Two random tokens with one SHA-256: a bug upstream, never overwrite the other's token.
        if (!isDuplicateKey(error)) throw error;
        throw new DomainError('conflict', 'A password reset token with this hash already exists.', { cause: error });
      }
    });
  }

  find(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    return databaseOperation(async () => {
      const document = await this.tokens.findOne({ _id: tokenHash, expiresAt: { $gt: now } });
      return document === null ? null : toPasswordResetToken(document);
    });
  }

  consume(tokenHash: string, now: Date): Promise<PasswordResetToken | null> {
    return databaseOperation(async () => {
      const document = await this.tokens.findOneAndDelete({ _id: tokenHash, expiresAt: { $gt: now } });
      return document === null ? null : toPasswordResetToken(document);
    });
  }

  deleteAllOf(customerId: string): Promise<void> {
    return databaseOperation(async () => {
      await this.tokens.deleteMany({ customerId });
    });
  }
}
