import { DomainError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Customer, CustomerProfile, Role } from './customer.js';
import { ROLES, toProfile } from './customer.js';
import { displayNameOf } from './display-name.js';
import { emailOf } from './email.js';
import { newPassword } from './password.js';
import { Issues } from '../shared/validation.js';
import type { CustomerRepository } from './customer-repository.js';
import type { Clock, PasswordHasher } from '../shared/security.js';

/** A new account: the password is hashed here, never stored as given. */
export interface RegisterCustomerInput {
  readonly email: string;
  readonly name: string;
  readonly password: string;
  readonly disabled?: boolean;
  /** Default `customer`; staff accounts are made by the operator. */
  readonly role?: Role;
}

/**
 * Adds a customer account for an operator (the CLI's `customers add`, demo seeding): any role; the
 * email, name and password follow the rules of sign-up. Customers sign themselves up through SignUp.
 */
export class RegisterCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async execute(input: RegisterCustomerInput): Promise<CustomerProfile> {
    const issues = new Issues();
    const email = emailOf(input.email);
    if (email === undefined) issues.add('email', 'must be an email address');
    const name = displayNameOf(input.name, 'name', issues);
    const password = newPassword(input.password, 'password', issues);
    if (input.role !== undefined && !ROLES.includes(input.role)) issues.add('role', `must be ${ROLES.join(' or ')}`);
    issues.throwIfAny();
    // throwIfAny has thrown for an email that is not one.
    const address = email!;
    if ((await this.customers.findByEmail(address)) !== null) {
      throw new DomainError('conflict', `A customer with email ${address} already exists.`);
    }
    const customer: Customer = {
      customerId: newId('cus'),
      email: address,
      name,
      passwordHash: await this.hasher.hash(password),
      disabled: input.disabled ?? false,
      createdAt: this.clock.now(),
      role: input.role ?? 'customer',
    };
    await this.customers.create(customer);
    return toProfile(customer);
  }
}
