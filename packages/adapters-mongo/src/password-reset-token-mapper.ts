/** Password reset tokens as stored: `_id` = the token's SHA-256 (the token itself is never stored). */
import type { PasswordResetToken } from '@storefront/domain/adapter-kit';

export interface PasswordResetTokenDocument {
  _id: string;
  customerId: string;
  createdAt: Date;
  /** Also what the TTL index removes the token by. */
  expiresAt: Date;
}

export function toPasswordResetTokenDocument(token: PasswordResetToken): PasswordResetTokenDocument {
  return {
    _id: token.tokenHash,
    customerId: token.customerId,
    createdAt: new Date(token.createdAt.getTime()),
    expiresAt: new Date(token.expiresAt.getTime()),
  };
}

export function toPasswordResetToken(document: PasswordResetTokenDocument): PasswordResetToken {
  return {
    tokenHash: document._id,
    customerId: document.customerId,
    createdAt: document.createdAt,
    expiresAt: document.expiresAt,
  };
}
