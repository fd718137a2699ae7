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

/** Whether a normalised email has an address's shape: something@domain.tld, no spaces, at most 254 characters. */
export function isEmailAddress(email: string): boolean {
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email);
}

/**
 * The length of `text` in characters as a person counts them (Unicode code points, as NIST SP
 * 800-63B and JSON Schema's `maxLength` do), not in UTF-16 units: an emoji is one character.
 */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A customer's own password (sign-up, reset): 8 to 128 characters, no composition rules (NIST SP 800-63B). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;
/** A display name: 1 to 100 characters once trimmed. */
export const MAX_NAME_LENGTH = 100;
