/**
 * What a database starts with (memory: at start-up; Mongo: once connected, when asked for): the menu
 * of STOREFRONT_MENU_FILE (else the demo menu) and, with STOREFRONT_DEMO_DATA, the demo customers.
 * A bad menu file is a configuration error.
 */
import { demoCustomers, loadMenuFile, MenuFileError, seedDemoData } from '@storefront/adapters-memory';
import { isDomainError, type Storefront } from '@storefront/domain';
import { ConfigError, type StorefrontConfig } from './config.js';
import type { Logger } from './logger.js';

export async function seedDatabase(storefront: Storefront, config: StorefrontConfig, logger: Logger): Promise<void> {
  if (config.menuFile !== undefined) {
    const products = await importMenuFile(storefront, config.menuFile);
    logger.info({ menu_file: config.menuFile, products }, 'menu loaded');
  }
  if (!config.demoData) return;
  if (config.menuFile === undefined) {
    await seedDemoData(storefront);
  } else {
    for (const customer of demoCustomers) {
      try {
        await storefront.registerCustomer.execute(customer);
      } catch (error) {
        if (!isDomainError(error, 'conflict')) throw error;
      }
    }
  }
  const accounts = demoCustomers.map((customer) =>
    customer.disabled ? `${customer.email} (disabled)` : customer.role !== 'customer' ? `${customer.email} (${customer.role})` : customer.email,
  );
  logger.warn({ demo_customers: demoCustomers.length }, `demo data active: ${accounts.join(', ')}`);
}

async function importMenuFile(storefront: Storefront, path: string): Promise<number> {
  try {
    return (await storefront.importMenu.execute(await loadMenuFile(path))).length;
  } catch (error) {
    if (error instanceof MenuFileError) throw ConfigError.of('STOREFRONT_MENU_FILE', `STOREFRONT_MENU_FILE: ${error.message}`);
    if (isDomainError(error, 'validation_failed')) {
      const problems = (error.details ?? []).slice(0, 5).map((issue) => `${issue.path} ${issue.message}`);
      const more = (error.details?.length ?? 0) > 5 ? `; and ${(error.details?.length ?? 0) - 5} more` : '';
      throw ConfigError.of('STOREFRONT_MENU_FILE', `STOREFRONT_MENU_FILE: ${path} is not a valid menu: ${problems.join('; ')}${more}`);
    }
    throw error;
  }
}
