import type { AccountPorts } from './account-ports.js';
import { DomainError } from '../errors.js';
import { givenPassword } from '../model/password.js';
import { Issues } from '../model/validation.js';
import type { CustomerRepository } from '../ports/customer-repository.js';
import type { OrderRepository } from '../ports/order-repository.js';
import type { PasswordResetTokenStore } from '../ports/password-reset-tokens.js';
import type { AbortSignalLike } from '../ports/security.js';
import type { Caller } from './authenticate.js';
import { countPasswordAttempt, type PasswordAttemptPolicies } from './password-attempts.js';

export interface EraseAccountInput {
  readonly caller: Caller;
  /** The account's password, asked again: an access token alone must not erase an account. */
  readonly password: unknown;
  /** Who is asking (an IP address over HTTP): the password is guessed under the login limits. */
  readonly client: string;
  readonly signal?: AbortSignalLike;
}

/**
 * The login limits, counted under the same keys as logins (password-attempts.ts): a stolen access
 * token cannot guess the password faster here, nor lock the owner out of logging in.
 */
export interface EraseAccountDependencies extends AccountPorts, PasswordAttemptPolicies {
  readonly resetTokens: PasswordResetTokenStore;
  /** The account's orders stay, without their delivery addresses. */
  readonly orders: OrderRepository;
}

/**
 * The caller erases their own account: its personal data (email, name, password hash) goes with
 * the account record, every session is revoked and every reset token dropped. Its orders stay for
 * the kitchen's books, without their delivery addresses (zone and fee stay); their customer id then
 * resolves to no account (shown as `deleted`), and the email may sign up again as a new customer. A wrong password is `invalid_credentials`.
 */
export class EraseAccount {
  constructor(private readonly deps: EraseAccountDependencies) {}

  async execute(input: EraseAccountInput): Promise<void> {
    const issues = new Issues();
    const password = givenPassword(input.password, 'password', issues);
    issues.throwIfAny();
    const { customer } = input.caller;
    const { customers, sessions, resetTokens, hasher, limiter, clock } = this.deps;
    await countPasswordAttempt(limiter, this.deps, { email: customer.email, client: input.client }, 'Too many password attempts; retry later.');
    const options = { client: input.client, ...(input.signal === undefined ? {} : { signal: input.signal }) };
    if (!(await hasher.verify(customer.passwordHash, password, options))) {
      throw new DomainError('invalid_credentials', 'The password is wrong.');
    }
    // The record first: with it gone no token of the account authenticates, even before the
    // sessions are revoked.
    await customers.delete(customer.customerId);
    await sessions.revokeAllOf(customer.customerId, clock.now());
    await resetTokens.deleteAllOf(customer.customerId);
    await this.deps.orders.eraseDeliveryAddresses(customer.customerId);
  }
}

/** How an order's customer reads once the account is erased. */
export const ERASED_CUSTOMER_LABEL = 'deleted';

/**
 * Who placed some orders, for the kitchen's books (the CLI's `orders list`): each customer id's
 * email, or `deleted` when the account was erased.
 */
export class LabelCustomers {
  constructor(private readonly customers: CustomerRepository) {}

  async execute(customerIds: Iterable<string>): Promise<Map<string, string>> {
    const ids = [...new Set(customerIds)];
    const found = await Promise.all(ids.map((id) => this.customers.findById(id)));
    return new Map(ids.map((id, i) => [id, found[i]?.email ?? ERASED_CUSTOMER_LABEL]));
  }
}
