import { DomainError } from '../shared/errors.js';
import { normalizeEmail } from './email.js';
import type { CustomerRepository } from './customer-repository.js';

/** Disables or re-enables an account; a disabled customer's tokens are refused at once. */
export class SetCustomerDisabled {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(input: { readonly email: string; readonly disabled: boolean }): Promise<void> {
    if (!(await this.customers.setDisabled(normalizeEmail(input.email), input.disabled))) {
      throw new DomainError('not_found', `No customer with email ${normalizeEmail(input.email)}.`);
    }
  }
}
