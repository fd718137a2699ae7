/**
 * The demo accounts of the default mode: two active customers, a disabled one to show the 403, and
 * a kitchen account (staff) to show the staff routes, and an owner (admin) who manages webhooks.
 */
import type { Role } from '@storefront/domain';

export interface DemoCustomer {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly disabled: boolean;
  readonly role: Role;
}

export const demoCustomers: readonly DemoCustomer[] = Object.freeze([
  Object.freeze({ email: 'alice@example.com', password: 'alice-password', name: 'Alice', disabled: false, role: 'customer' }),
  Object.freeze({ email: 'bob@example.com', password: 'bob-password', name: 'Bob', disabled: false, role: 'customer' }),
  Object.freeze({ email: 'carol@example.com', password: 'carol-password', name: 'Carol', disabled: true, role: 'customer' }),
  Object.freeze({ email: 'kitchen@example.com', password: 'kitchen-password', name: 'Kitchen', disabled: false, role: 'staff' }),
  Object.freeze({ email: 'owner@example.com', password: 'owner-password', name: 'Owner', disabled: false, role: 'admin' }),
] satisfies DemoCustomer[]);
