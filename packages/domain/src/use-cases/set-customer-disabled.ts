import { DomainError } from '../errors.js';
import { normalizeEmail } from '../model/email.js';
import type { CustomerRepository } from '../ports/customer-repository.js';

/** Disables or re-enables an account; a disabled customer's tokens are refused at once. */
export class SetCustomerDisabled {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(input: { readonly email: string; readonly disabled: boolean }): Promise<void> {
    if (!(await this.customers.setDisabled(normalizeEmail(input.email), input.disabled))) {
      throw new DomainError('not_found', `No customer with email ${normalizeEmail(input.email)}.`);
    }
  }
}
