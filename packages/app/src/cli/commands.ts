/**
 * The operator commands. Each one validates everything before it writes, so a bad input changes
 * nothing, and reports problems as `CliError`s (a message and an exit code, never a stack trace).
 */
import { CliError, type CliIo } from './cli-io.js';

export { CliError, type CliIo };
import { generateSigningKey, isSecretPaserk, publicKeyOf } from '@storefront/adapters-crypto';
import { demoCustomers, demoMenu, loadMenuFile, MenuFileError } from '@storefront/adapters-memory';
import { DomainError, isDomainError, ROLES, type Order, type Role, type Storefront } from '@storefront/domain';
import { menuDocumentOf } from '@storefront/domain/adapter-kit';
import { parseArgs } from 'node:util';
import { runWebhooks, WEBHOOKS_USAGE } from './webhooks.js';


export const USAGE = `usage: storefront <command>

  menu import <file>                       load a menu file {"products":[...]} (option groups
                                           included); idempotent by name
  menu export                              print the menu in the same format
  customers add --email <e> --name <n> [--role customer|staff|admin]
                                           add an account (default role customer); the password is
                                           read from stdin or a prompt
  customers role <email> customer|staff|admin
                                           change an account's role (staff work the kitchen routes;
                                           admin is staff and manages webhooks)
  customers disable <email>                refuse the customer's logins and tokens (403)
  customers enable <email>
  orders list [--status s1,s2] [--page n] [--limit n]
                                           the kitchen queue, oldest first (default: the open orders),
                                           who placed each (the email, or "deleted" if erased), what
                                           the customer pays and its tax ("incl." when in the prices)
  orders move <order_id> <status> [--reason <text>] [--if-version <n>]
                                           move an order as the kitchen does (accepted, preparing,
                                           ready, completed, rejected, cancelled)
${WEBHOOKS_USAGE}
  seed --demo                              load the demo menu and demo customers
  db migrate                               bring the PostgreSQL schema of DATABASE_URL up to this
                                           version (the start does it too)
  keys generate                            print a new TOKEN_SECRET_KEY (PASERK k4.secret)
  keys public                              print the k4.public PASERK of the k4.secret read from stdin,
                                           for TOKEN_VERIFY_KEYS (first step of a key rotation, README)

The store is the one the environment configures (STOREFRONT_STORE, MONGODB_URI or DATABASE_URL), as
for the server.`;

/** Commands that need no database: true when `args` was one of them (and it ran). */
export async function runOffline(args: readonly string[], io: CliIo): Promise<boolean> {
  if (args[0] === 'keys' && args[1] === 'generate' && args.length === 2) {
    io.out(generateSigningKey());
    return true;
  }
  if (args[0] === 'keys' && args[1] === 'public' && args.length === 2) {
    io.out(await publicKeyFromSecret(await io.readSecret()));
    return true;
  }
  return false;
}

/** The secret key is never an argument (shell history, process listings) and never echoed back. */
async function publicKeyFromSecret(input: string): Promise<string> {
  const secret = input.trim();
  if (!isSecretPaserk(secret)) {
    throw new CliError('keys public reads a PASERK k4.secret key ("k4.secret." followed by 86 base64url characters) from stdin; the input is not one');
  }
  try {
    return await publicKeyOf(secret);
  } catch {
    // e.g. the public half of the 64 bytes is not the seed's: a damaged copy of the key.
    throw new CliError('keys public: the k4.secret key read from stdin is damaged (its two halves do not match)');
  }
}

export async function runCommand(storefront: Storefront, args: readonly string[], io: CliIo): Promise<void> {
  const [group, action, ...rest] = args;
  try {
    if (group === 'menu' && action === 'import' && rest.length === 1) return await importMenu(storefront, rest[0]!, io);
    if (group === 'menu' && action === 'export' && rest.length === 0) return await exportMenu(storefront, io);
    if (group === 'customers' && action === 'add') return await addCustomer(storefront, rest, io);
    if (group === 'customers' && (action === 'disable' || action === 'enable') && rest.length === 1) {
      await storefront.setCustomerDisabled.execute({ email: rest[0]!, disabled: action === 'disable' });
      return io.out(`${rest[0]} ${action}d`);
    }
    if (group === 'customers' && action === 'role' && rest.length === 2) {
      await storefront.setCustomerRole.execute({ email: rest[0]!, role: parseRole(rest[1]!) });
      return io.out(`${rest[0]} is now ${rest[1]}`);
    }
    if (group === 'orders' && action === 'list') return await listOrders(storefront, rest, io);
    if (group === 'orders' && action === 'move') return await moveOrder(storefront, rest, io);
    if (group === 'webhooks' && (await runWebhooks(storefront, action, rest, io))) return;
    if (group === 'seed' && action === '--demo' && rest.length === 0) return await seedDemo(storefront, io);
  } catch (error) {
    throw explain(error);
  }
  throw new CliError(`unknown command: ${args.join(' ') || '(none)'}\n\n${USAGE}`, 2);
}

async function importMenu(storefront: Storefront, path: string, io: CliIo): Promise<void> {
  const products = await storefront.importMenu.execute(await loadMenuFile(path));
  io.out(`imported ${products.length} products from ${path}`);
}

/** The menu file format, option groups included and ids left out: `menu import` of it changes nothing. */
async function exportMenu(storefront: Storefront, io: CliIo): Promise<void> {
  const { products } = await storefront.listMenu.execute();
  io.out(JSON.stringify(menuDocumentOf(products), null, 2));
}

async function addCustomer(storefront: Storefront, args: readonly string[], io: CliIo): Promise<void> {
  if (args.some((arg) => arg.startsWith('--password'))) {
    throw new CliError('the password is never an argument (it would stay in shell history): pipe it to stdin or type it at the prompt', 2);
  }
  const { values } = parseArgs({
    args: [...args],
    options: { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } },
    strict: true,
  });
  if (values.email === undefined || values.name === undefined) throw new CliError('customers add needs --email and --name', 2);
  // Checked before the password is asked for: a typo in the role must not cost a prompt.
  const role = values.role === undefined ? 'customer' : parseRole(values.role);
  const password = await io.readPassword();
  const customer = await storefront.registerCustomer.execute({ email: values.email, name: values.name, password, role });
  io.out(`added ${customer.email} as ${customer.customerId} (${customer.role})`);
}

function parseRole(value: string): Role {
  const role = ROLES.find((candidate) => candidate === value);
  if (role === undefined) throw new CliError(`the role must be ${ROLES.join(' or ')}, got "${value}"`, 2);
  return role;
}

/**
 * The same use case as GET /api/staff/orders; one line per order, oldest first, with the
 * customer's email (`deleted` for an erased account: its orders stay for the books).
 */
async function listOrders(storefront: Storefront, args: readonly string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args: [...args],
    options: { status: { type: 'string' }, page: { type: 'string' }, limit: { type: 'string' } },
    strict: true,
  });
  const page = await storefront.listKitchenOrders.execute({
    status: values.status,
    page: optionalInteger('--page', values.page),
    limit: optionalInteger('--limit', values.limit),
  });
  const customers = await storefront.labelCustomers.execute(page.items.map((order) => order.customerId));
  for (const order of page.items) {
    const items = order.items.map((line) => `${line.quantity}× ${line.name}`).join(', ');
    const customer = customers.get(order.customerId);
    io.out(`${order.orderId}  ${order.status.padEnd(9)}  v${order.version}  ${order.createdAt.toISOString()}  ${customer}  ${order.amount} ${order.currency}  ${taxColumn(order)}  ${items}`);
  }
  io.out(`${page.items.length} of ${page.total} orders (page ${page.page}${page.nextPage === null ? '' : `; next: --page ${page.nextPage}`})`);
}

/** "tax 36" (in the amount, added on top) or "tax 29 incl." (in the prices): the amount is what the customer pays either way. */
function taxColumn(order: Order): string {
  return `tax ${order.taxTotal}${order.pricesIncludeTax ? ' incl.' : ''}`;
}

/** The same use case as POST /api/staff/orders/{order_id}/status. */
async function moveOrder(storefront: Storefront, args: readonly string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args: [...args],
    options: { reason: { type: 'string' }, 'if-version': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 2) throw new CliError('orders move needs <order_id> <status>', 2);
  const order = await storefront.moveOrder.execute({
    orderId: positionals[0]!,
    status: positionals[1]!,
    reason: values.reason,
    expectedVersion: optionalInteger('--if-version', values['if-version']),
  });
  io.out(`${order.orderId} is now ${order.status} (version ${order.version})`);
}

function optionalInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new CliError(`${flag} must be a positive integer, got "${value}"`, 2);
  return Number(value);
}

async function seedDemo(storefront: Storefront, io: CliIo): Promise<void> {
  const products = await storefront.importMenu.execute(demoMenu);
  let added = 0;
  for (const customer of demoCustomers) {
    try {
      await storefront.registerCustomer.execute(customer);
      added++;
    } catch (error) {
      if (!isDomainError(error, 'conflict')) throw error;
    }
  }
  io.out(`demo menu: ${products.length} products; demo customers added: ${added} (existing ones kept)`);
}

function explain(error: unknown): unknown {
  if (error instanceof MenuFileError) return new CliError(error.message);
  if (error instanceof DomainError) {
    const details = (error.details ?? []).map((issue) => `  ${issue.path}: ${issue.message}`);
    return new CliError([error.message, ...details].join('\n'));
  }
  if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
    return new CliError(error.message, 2);
  }
  return error;
}
