/**
 * Customer accounts in process memory. Records are copied in and out: a Date is mutable even when
 * frozen, and a caller must not be able to change an account by editing an object it was handed.
 * `create` checks and claims the email without awaiting in between, so of concurrent sign-ups with
 * one email exactly one succeeds (the role MongoDB's unique index plays). An account marked for
 * erasure keeps its record (and email) until deleted, hidden from the finders.
 */
import type { Customer, CustomerRepository, Role } from '@storefront/domain';
import { DomainError } from '@storefront/domain';

function copy(customer: Customer): Customer {
  return {
    customerId: customer.customerId,
    email: customer.email,
    name: customer.name,
    passwordHash: customer.passwordHash,
    disabled: customer.disabled,
    createdAt: new Date(customer.createdAt.getTime()),
    role: customer.role,
  };
}

export class InMemoryCustomerRepository implements CustomerRepository {
  private readonly byId = new Map<string, Customer>();
  private readonly idByEmail = new Map<string, string>();
  /** Accounts marked for erasure → when: InMemoryPendingErasures writes and lists them. */
  readonly erasing = new Map<string, Date>();

  async findByEmail(email: string): Promise<Customer | null> {
    const id = this.idByEmail.get(email);
    return id === undefined ? null : this.findSync(id);
  }

  async findById(customerId: string): Promise<Customer | null> {
    return this.findSync(customerId);
  }

  async create(customer: Customer): Promise<void> {
    if (this.idByEmail.has(customer.email)) {
      throw new DomainError('conflict', `A customer with email ${customer.email} already exists.`);
    }
    if (this.byId.has(customer.customerId)) {
      throw new DomainError('conflict', `A customer with id ${customer.customerId} already exists.`);
    }
    this.byId.set(customer.customerId, copy(customer));
    this.idByEmail.set(customer.email, customer.customerId);
  }

  async setDisabled(email: string, disabled: boolean): Promise<boolean> {
    return this.change(email, { disabled });
  }

  async setRole(email: string, role: Role): Promise<boolean> {
    return this.change(email, { role });
  }

  async updatePasswordHash(customerId: string, expected: string, replacement: string): Promise<boolean> {
    const customer = this.byId.get(customerId);
    if (customer === undefined || customer.passwordHash !== expected) return false;
    this.byId.set(customerId, { ...customer, passwordHash: replacement });
    return true;
  }

  async delete(customerId: string): Promise<boolean> {
    const customer = this.byId.get(customerId);
    if (customer === undefined) return false;
    this.byId.delete(customerId);
    this.erasing.delete(customerId);
    // Frees the email for a new sign-up.
    if (this.idByEmail.get(customer.email) === customerId) this.idByEmail.delete(customer.email);
    return true;
  }

  private change(email: string, change: Partial<Pick<Customer, 'disabled' | 'role'>>): boolean {
    const id = this.idByEmail.get(email);
    const customer = id === undefined ? undefined : this.byId.get(id);
    if (customer === undefined) return false;
    this.byId.set(customer.customerId, { ...customer, ...change });
    return true;
  }

  /** Whether an account record exists, marked for erasure or not. */
  has(customerId: string): boolean {
    return this.byId.has(customerId);
  }

  private findSync(customerId: string): Customer | null {
    const customer = this.byId.get(customerId);
    return customer === undefined || this.erasing.has(customerId) ? null : copy(customer);
  }
}
