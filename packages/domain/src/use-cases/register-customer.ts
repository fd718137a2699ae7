import { DomainError } from '../errors.js';
import { newId } from '../ids.js';
import type { Customer, CustomerProfile, Role } from '../model/customer.js';
import { isEmailAddress, MAX_NAME_LENGTH, normalizeEmail, ROLES, toProfile } from '../model/customer.js';
import { Issues } from '../model/validation.js';
import type { CustomerRepository } from '../ports/customer-repository.js';
import type { Clock, PasswordHasher } from '../ports/security.js';

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
 * Adds a customer account for an operator (the CLI's `customers add`, demo seeding): any role, and
 * passwords up to 1024 characters as before. Customers sign themselves up through SignUp.
 */
export class RegisterCustomer {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async execute(input: RegisterCustomerInput): Promise<CustomerProfile> {
    const issues = new Issues();
    const email = normalizeEmail(input.email);
    if (!isEmailAddress(email)) issues.add('email', 'must be an email address');
    if (input.name.trim() === '' || input.name.length > MAX_NAME_LENGTH) issues.add('name', `must be 1 to ${MAX_NAME_LENGTH} characters`);
    if (input.password.length < 8 || input.password.length > 1024) issues.add('password', 'must be 8 to 1024 characters');
    if (input.role !== undefined && !ROLES.includes(input.role)) issues.add('role', `must be ${ROLES.join(' or ')}`);
    issues.throwIfAny();
    if ((await this.customers.findByEmail(email)) !== null) {
      throw new DomainError('conflict', `A customer with email ${email} already exists.`);
    }
    const customer: Customer = {
      customerId: newId('cus'),
      email,
      name: input.name.trim(),
      passwordHash: await this.hasher.hash(input.password),
      disabled: input.disabled ?? false,
      createdAt: this.clock.now(),
      role: input.role ?? 'customer',
    };
    await this.customers.create(customer);
    return toProfile(customer);
  }
}
