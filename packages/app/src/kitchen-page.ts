/**
 * What the HTTP app needs to serve the kitchen display at /kitchen (STOREFRONT_KITCHEN_PAGE): the
 * page and its files from the @storefront/kitchen-page package, read once at start (a few small
 * files). Its compiled ES modules are every .js file of its build, so a module added to the page is
 * served without a list to keep in step; declarations and maps are not served.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { KitchenPage } from '@storefront/adapters-http';
import { ConfigError } from './config.js';

/** The package's folder (its package.json, as `exports` allows). */
function packageRoot(): string {
  return dirname(createRequire(import.meta.url).resolve('@storefront/kitchen-page/package.json'));
}

/** The page, or a ConfigError naming STOREFRONT_KITCHEN_PAGE when it is not built: the start stops, not the first cook. */
export function loadKitchenPage(root: string = packageRoot()): KitchenPage {
  try {
    const modules = join(root, 'dist', 'src');
    const files = new Map<string, Buffer>();
    for (const name of readdirSync(modules).filter((file) => file.endsWith('.js'))) files.set(name, readFileSync(join(modules, name)));
    if (!files.has('main.js')) throw new Error(`${modules} has no main.js; run the build (pnpm build)`);
    files.set('kitchen.css', readFileSync(join(root, 'static', 'kitchen.css')));
    return { html: readFileSync(join(root, 'static', 'index.html')), files };
  } catch (error) {
    throw ConfigError.of('STOREFRONT_KITCHEN_PAGE', `The kitchen page cannot be served (${(error as Error).message}); set STOREFRONT_KITCHEN_PAGE=false to start without it`);
  }
}
