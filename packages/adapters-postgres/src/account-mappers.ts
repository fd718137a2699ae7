/** Customers, sessions and reset tokens as rows, and back; dates are fresh objects either way. */
import type { Customer, Role } from '@storefront/domain';
import type { PasswordResetToken, Session } from '@storefront/domain/adapter-kit';

export interface CustomerRow {
  customer_id: string;
  email: string;
  name: string;
  password_hash: string;
  disabled: boolean;
  role: Role;
  created_at: Date;
}

export const CUSTOMER_COLUMNS = 'customer_id, email, name, password_hash, disabled, role, created_at';

export function toCustomer(row: CustomerRow): Customer {
  return {
    customerId: row.customer_id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    disabled: row.disabled,
    createdAt: row.created_at,
    role: row.role,
  };
}

export interface SessionRow {
  session_id: string;
  customer_id: string;
  refresh_token_hash: string;
  previous_token_hashes: string[];
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export const SESSION_COLUMNS = 'session_id, customer_id, refresh_token_hash, previous_token_hashes, created_at, expires_at, revoked_at';

export function toSession(row: SessionRow): Session {
  return {
    sessionId: row.session_id,
    customerId: row.customer_id,
    refreshTokenHash: row.refresh_token_hash,
    previousTokenHashes: row.previous_token_hashes,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

export interface ResetTokenRow {
  token_hash: string;
  customer_id: string;
  created_at: Date;
  expires_at: Date;
}

export const RESET_TOKEN_COLUMNS = 'token_hash, customer_id, created_at, expires_at';

export function toResetToken(row: ResetTokenRow): PasswordResetToken {
  return { tokenHash: row.token_hash, customerId: row.customer_id, createdAt: row.created_at, expiresAt: row.expires_at };
}

/** A copy of a Date for a query parameter: the caller's object is never held. */
export function copyDate(date: Date): Date {
  return new Date(date.getTime());
}
