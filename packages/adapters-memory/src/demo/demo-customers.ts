/** The demo accounts of the default mode: two active ones, and a disabled one to show the 403. */
export interface DemoCustomer {
  readonly email: string;
  readonly password: string;
  readonly name: string;
  readonly disabled: boolean;
}

export const demoCustomers: readonly DemoCustomer[] = Object.freeze([
  Object.freeze({ email: 'alice@example.com', password: 'alice-password', name: 'Alice', disabled: false }),
  Object.freeze({ email: 'bob@example.com', password: 'bob-password', name: 'Bob', disabled: false }),
  Object.freeze({ email: 'carol@example.com', password: 'carol-password', name: 'Carol', disabled: true }),
]);
