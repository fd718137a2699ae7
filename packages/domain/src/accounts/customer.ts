/**
 * What an account may do: `staff` also works the kitchen (the staff routes, any order); `admin` is
 * staff and more: it alone manages webhooks (DECISIONS "Roles").
 */
export type Role = 'customer' | 'staff' | 'admin';

export const ROLES: readonly Role[] = ['customer', 'staff', 'admin'];

/** Whether the role works the kitchen: staff, and admin (which is staff and more). */
export function isStaffRole(role: Role): boolean {
  return role === 'staff' || role === 'admin';
}

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
