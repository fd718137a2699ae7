/**
 * Customer accounts as stored: `_id` = customer id; the email is unique (an index). Accounts
 * written before roles existed have no `role` and are read as customers, the default role.
 */
import type { Customer, Role } from '@storefront/domain';

export interface CustomerDocument {
  _id: string;
  email: string;
  name: string;
  passwordHash: string;
  disabled: boolean;
  createdAt: Date;
  /** Absent on accounts written before roles existed. */
  role?: Role;
  /** Set when the account's erasure was requested (the erasure's first step); gone with the document. */
  erasureRequestedAt?: Date;
}

export function toCustomerDocument(customer: Customer): CustomerDocument {
  return {
    _id: customer.customerId,
    email: customer.email,
    name: customer.name,
    passwordHash: customer.passwordHash,
    disabled: customer.disabled,
    createdAt: new Date(customer.createdAt.getTime()),
    role: customer.role,
  };
}

export function toCustomer(document: CustomerDocument): Customer {
  return {
    customerId: document._id,
    email: document.email,
    name: document.name,
    passwordHash: document.passwordHash,
    disabled: document.disabled,
    createdAt: document.createdAt,
    role: document.role ?? 'customer',
  };
}
