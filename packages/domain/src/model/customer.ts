import type { Issues } from './validation.js';

/** What an account may do: `staff` also works the kitchen (the staff routes, any order). */
export type Role = 'customer' | 'staff';

export const ROLES: readonly Role[] = ['customer', 'staff'];

/** A customer account. `passwordHash` never leaves the domain through a use case result. */
export interface Customer {
  readonly customerId: string;
  readonly email: string;
  readonly name: string;
  readonly passwordHash: string;
  readonly disabled: boolean;
  readonly createdAt: Date;
  readonly role: Role;
}

/** What a use case may hand out about a customer. */
export interface CustomerProfile {
  readonly customerId: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly role: Role;
}

export function toProfile(customer: Customer): CustomerProfile {
  return {
    customerId: customer.customerId,
    email: customer.email,
    name: customer.name,
    createdAt: customer.createdAt,
    role: customer.role,
  };
}

/** Emails are compared trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The longest address SMTP carries (RFC 5321 path limit). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * An email given to find an account (a login, a reset request), normalised: a non-blank string of
 * at most MAX_EMAIL_LENGTH characters, its shape unchecked (no account has a malformed one).
 * Records an issue at `email` (and answers '') otherwise.
 */
export function givenEmail(value: unknown, issues: Issues): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_EMAIL_LENGTH) {
    issues.add('email', `is required: a string of at most ${MAX_EMAIL_LENGTH} characters`);
    return '';
  }
  return normalizeEmail(value);
}

/** Whether a normalised email has an address's shape: something@domain.tld, no spaces, at most 254 characters. */
export function isEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

/** A customer's own password (sign-up, reset): 8 to 128 characters, no composition rules (NIST SP 800-63B). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;
/** A display name: 1 to 100 characters once trimmed. */
export const MAX_NAME_LENGTH = 100;
