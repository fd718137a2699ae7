import { DomainError } from '../shared/errors.js';
import { ROLES, type Role } from './customer.js';
import { normalizeEmail } from './email.js';
import type { CustomerRepository } from './customer-repository.js';

/** Makes an account staff or customer again (the operator CLI); its next request sees the role. */
export class SetCustomerRole {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(input: { readonly email: string; readonly role: Role }): Promise<void> {
    if (!ROLES.includes(input.role)) throw new DomainError('validation_failed', `role must be ${ROLES.join(' or ')}.`, { details: [{ path: 'role', message: `must be ${ROLES.join(' or ')}` }] });
    if (!(await this.customers.setRole(normalizeEmail(input.email), input.role))) {
      throw new DomainError('not_found', `No customer with email ${normalizeEmail(input.email)}.`);
    }
  }
}
