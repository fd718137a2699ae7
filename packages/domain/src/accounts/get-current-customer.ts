import type { CustomerProfile } from './customer.js';
import { toProfile } from './customer.js';
import type { Caller } from './authenticate.js';

/** The logged-in customer, without anything secret. */
export class GetCurrentCustomer {
  execute(caller: Caller): CustomerProfile {
    return toProfile(caller.customer);
  }
}
