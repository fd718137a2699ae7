import type { Customer, Role } from './customer.js';

/**
 * Port: where customer accounts live. Emails are unique. An account whose erasure was requested
 * (PendingErasures' `mark`) reads as gone (`findByEmail`, `findById`: null) until `delete` removes
 * it, and the mark with it.
 */
export interface CustomerRepository {
  /** `email` is already normalised (trimmed, lower-case). */
  findByEmail(email: string): Promise<Customer | null>;
  findById(customerId: string): Promise<Customer | null>;
  /** Fails with DomainError `conflict` when the email is taken. */
  create(customer: Customer): Promise<void>;
  /** Returns false when no customer has this email. */
  setDisabled(email: string, disabled: boolean): Promise<boolean>;
  /** Returns false when no customer has this email. */
  setRole(email: string, role: Role): Promise<boolean>;
  /**
   * Replaces the customer's password hash with `replacement` only if it is still `expected`
   * (compare-and-set: a re-hash after login never overwrites a hash changed meanwhile). Returns
   * whether it was replaced.
   */
  updatePasswordHash(customerId: string, expected: string, replacement: string): Promise<boolean>;
  /**
   * Erases the account: the record (email, name, password hash) is removed, so the email is free to
   * sign up again. Orders keep the customer id, which then resolves to no account. Returns false
   * when there was no such customer.
   */
  delete(customerId: string): Promise<boolean>;
}
