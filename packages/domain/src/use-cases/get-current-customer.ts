import type { CustomerProfile } from '../model/customer.js';
import { toProfile } from '../model/customer.js';
import type { Caller } from './authenticate.js';

/** The logged-in customer, without anything secret. */
export class GetCurrentCustomer {
  execute(caller: Caller): CustomerProfile {
    return toProfile(caller.customer);
  }
}
