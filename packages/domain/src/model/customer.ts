/** A customer account. `passwordHash` never leaves the domain through a use case result. */
export interface Customer {
  readonly customerId: string;
  readonly email: string;
  readonly name: string;
  readonly passwordHash: string;
  readonly disabled: boolean;
  readonly createdAt: Date;
}

/** What a use case may hand out about a customer. */
export interface CustomerProfile {
  readonly customerId: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: Date;
}

export function toProfile(customer: Customer): CustomerProfile {
  return {
    customerId: customer.customerId,
    email: customer.email,
    name: customer.name,
    createdAt: customer.createdAt,
  };
}

/** Emails are compared trimmed and lower-cased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
