/**
 * The operator CLI's kitchen commands, run in-process on one memory store (a spawned CLI would get a
 * fresh memory store per command): the same use cases as the staff routes.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { createStorefront, type Storefront, type StorefrontOptions } from '@storefront/domain';
import { taxRateOf } from '@storefront/domain/adapter-kit';
import { CliError, runCommand, type CliIo } from '../src/cli/commands.js';

function world(options: StorefrontOptions = {}): { storefront: Storefront; run: (...args: string[]) => Promise<string[]> } {
  const storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }) }, options);
  const run = async (...args: string[]): Promise<string[]> => {
    const out: string[] = [];
    const io: CliIo = { out: (text) => out.push(text), readPassword: async () => 'a-long-password', readSecret: async () => '' };
    await runCommand(storefront, args, io);
    return out;
  };
  return { storefront, run };
}

async function placeOne(storefront: Storefront, email: string): Promise<string> {
  const [product] = await storefront.importMenu.execute({ products: [{ name: 'Soup', category: 'Starters', price: 450 }] });
  const customer = await storefront.registerCustomer.execute({ email, name: 'Ann', password: 'a-long-password' });
  const { order } = await storefront.placeOrder.execute({ customerId: customer.customerId, items: [{ productId: product!.productId, quantity: 1 }] });
  return order.orderId;
}

async function roleOf(storefront: Storefront, email: string): Promise<string> {
  const { accessToken } = await storefront.login.execute({ email, password: 'a-long-password', client: 'test' });
  return storefront.getCurrentCustomer.execute(await storefront.authenticate.execute(accessToken)).role;
}

describe('storefront CLI: the kitchen commands', () => {
  it('adds a staff account with --role staff, and a customer without it', async () => {
    const { storefront, run } = world();
    expect((await run('customers', 'add', '--email', 'chef@example.com', '--name', 'Chef', '--role', 'staff'))[0]).to.match(/\(staff\)$/);
    await run('customers', 'add', '--email', 'ann@example.com', '--name', 'Ann');
    expect(await roleOf(storefront, 'chef@example.com')).to.equal('staff');
    expect(await roleOf(storefront, 'ann@example.com')).to.equal('customer');
  });

  it('adds an admin account with --role admin', async () => {
    const { storefront, run } = world();
    expect((await run('customers', 'add', '--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin'))[0]).to.match(/\(admin\)$/);
    expect(await roleOf(storefront, 'boss@example.com')).to.equal('admin');
  });

  it('refuses an unknown role before asking for a password, and adds nobody', async () => {
    const { storefront, run } = world();
    const error = await run('customers', 'add', '--email', 'x@example.com', '--name', 'X', '--role', 'chef').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CliError).with.property('exitCode', 2);
    expect(await storefront.login.execute({ email: 'x@example.com', password: 'a-long-password', client: 't' }).catch((e: { code: string }) => e.code)).to.equal('invalid_credentials');
  });

  it('changes a role with customers role, and says when the account does not exist', async () => {
    const { storefront, run } = world();
    await run('customers', 'add', '--email', 'ann@example.com', '--name', 'Ann');
    expect(await run('customers', 'role', 'ann@example.com', 'staff')).to.deep.equal(['ann@example.com is now staff']);
    expect(await roleOf(storefront, 'ann@example.com')).to.equal('staff');
    const error = await run('customers', 'role', 'nobody@example.com', 'staff').catch((e: unknown) => e);
    expect(error).to.be.instanceOf(CliError);
    expect((error as Error).message).to.contain('nobody@example.com');
  });

  it('lists the open orders and moves one along the lifecycle, refusing an illegal move with the current status', async () => {
    const { storefront, run } = world();
    const orderId = await placeOne(storefront, 'ann@example.com');
    const listed = await run('orders', 'list');
    expect(listed[0]).to.match(new RegExp(`^${orderId}  placed +v1 `));
    expect(listed.at(-1)).to.equal('1 of 1 orders (page 1)');
    expect(await run('orders', 'move', orderId, 'accepted', '--if-version', '1')).to.deep.equal([`${orderId} is now accepted (version 2)`]);
    const stale = await run('orders', 'move', orderId, 'preparing', '--if-version', '1').catch((e: unknown) => e);
    expect((stale as Error).message).to.contain('accepted at version 2');
    const illegal = await run('orders', 'move', orderId, 'completed').catch((e: unknown) => e);
    expect(illegal).to.be.instanceOf(CliError);
    expect((illegal as Error).message).to.equal('The order is accepted; it cannot move to completed.');
    expect(await run('orders', 'move', orderId, 'cancelled', '--reason', 'out of dough')).to.deep.equal([`${orderId} is now cancelled (version 3)`]);
    expect((await run('orders', 'list', '--status', 'cancelled'))[0]).to.contain(orderId);
    expect((await run('orders', 'list')).at(-1)).to.equal('0 of 0 orders (page 1)');
  });

  it('shows who placed each order: the email, and deleted once the account is erased (its orders stay listed)', async () => {
    const { storefront, run } = world();
    const orderId = await placeOne(storefront, 'ann@example.com');
    const [line] = await run('orders', 'list');
    expect(line).to.match(new RegExp(`^${orderId}  placed +v1  \\S+Z  ann@example\\.com  450 USD  tax 0  1× Soup$`));
    const { accessToken } = await storefront.login.execute({ email: 'ann@example.com', password: 'a-long-password', client: 'test' });
    await storefront.eraseAccount.execute({ caller: await storefront.authenticate.execute(accessToken), password: 'a-long-password', client: 'cli-test' });
    const after = await run('orders', 'list');
    expect(after[0]).to.match(new RegExp(`^${orderId}  placed +v1  \\S+Z  deleted  450 USD  tax 0  1× Soup$`));
    expect(after.at(-1)).to.equal('1 of 1 orders (page 1)');
  });

  it('shows the tax of each order: added on top (in the amount), or included in the prices', async () => {
    const added = world({ store: { taxes: { rate: taxRateOf(800), pricesIncludeTax: false, deliveryFeeRate: taxRateOf(800) } } });
    await placeOne(added.storefront, 'ann@example.com');
    expect((await added.run('orders', 'list'))[0]).to.match(/  ann@example\.com  486 USD  tax 36  1× Soup$/);
    const included = world({ store: { taxes: { rate: taxRateOf(1900), pricesIncludeTax: true, deliveryFeeRate: taxRateOf(1900) } } });
    await placeOne(included.storefront, 'ann@example.com');
    expect((await included.run('orders', 'list'))[0]).to.match(/  ann@example\.com  450 USD  tax 72 incl\.  1× Soup$/);
  });

  it('refuses an unknown status filter and a non-numeric --if-version with a clear message', async () => {
    const { run } = world();
    const filter = await run('orders', 'list', '--status', 'cooking').catch((e: unknown) => e);
    expect((filter as Error).message).to.contain('"cooking" is not a status');
    const version = await run('orders', 'move', 'ord_x', 'accepted', '--if-version', 'two').catch((e: unknown) => e);
    expect(version).to.be.instanceOf(CliError).with.property('exitCode', 2);
  });
});
