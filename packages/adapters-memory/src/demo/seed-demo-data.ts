/**
 * Loads the demo data through the use cases (so it is validated and hashed like any other data).
 * Safe to run on every start: the menu is upserted by name and existing customers are skipped.
 */
import type { Storefront } from '@storefront/domain';
import { isDomainError } from '@storefront/domain';
import { demoCustomers } from './demo-customers.js';
import { demoMenu } from './demo-menu.js';

export interface DemoSeedResult {
  /** Products on the demo menu after the import. */
  readonly products: number;
  /** Emails of the customers created by this call (those that already existed are skipped). */
  readonly customersCreated: readonly string[];
}

export async function seedDemoData(storefront: Pick<Storefront, 'importMenu' | 'registerCustomer'>): Promise<DemoSeedResult> {
  const products = await storefront.importMenu.execute(demoMenu);
  const customersCreated: string[] = [];
  for (const customer of demoCustomers) {
    try {
      await storefront.registerCustomer.execute(customer);
      customersCreated.push(customer.email);
    } catch (error) {
      if (!isDomainError(error, 'conflict')) throw error;
    }
  }
  return { products: products.length, customersCreated };
}
