import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { MenuRepository, Product } from '@storefront/domain';
import type { ProductDraft } from '@storefront/domain/adapter-kit';
import { createStorefront } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import { expectDomainError } from '@storefront/testing';
import { aWorld, withMenu } from './world.js';

/**
 * The memory menu with a gate on findByIds, to hold a first request in flight while a second one
 * arrives; everything else is the real adapter.
 */
class GatedMenu implements MenuRepository {
  private open: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  private entered: () => void = () => undefined;
  readonly reached = new Promise<void>((resolve) => (this.entered = resolve));

  constructor(private readonly inner: MenuRepository) {}

  release(): void {
    this.open();
  }
  list(): Promise<readonly Product[]> {
    return this.inner.list();
  }
  async findByIds(ids: readonly string[]): Promise<readonly Product[]> {
    this.entered();
    await this.gate;
    return this.inner.findByIds(ids);
  }
  upsertByName(drafts: readonly ProductDraft[]): Promise<readonly Product[]> {
    return this.inner.upsertByName(drafts);
  }
  setAvailability(productId: string, available: boolean): Promise<Product | null> {
    return this.inner.setAvailability(productId, available);
  }
  revision(): Promise<string> {
    return this.inner.revision();
  }
}

describe('PlaceOrder', () => {
  const customerId = newId('cus');

  it('prices the order from the menu', async () => {
    const world = aWorld();
    const { soup, pizza } = await withMenu(world);
    const { order, replayed } = await world.storefront.placeOrder.execute({
      customerId,
      items: [{ productId: soup.productId, quantity: 2 }, { productId: pizza.productId, quantity: 1 }],
    });
    expect(replayed).to.equal(false);
    expect(order.items).to.deep.equal([
      { productId: soup.productId, name: 'Tomato soup', quantity: 2, unitPrice: 450, lineTotal: 900, options: [], taxRate: 0 },
      { productId: pizza.productId, name: 'Pizza Margherita', quantity: 1, unitPrice: 1290, lineTotal: 1290, options: [], taxRate: 0 },
    ]);
    expect(order).to.include({ customerId, amount: 2190, currency: 'USD' });
    expect(order.orderId).to.match(/^ord_/);
    expect(order.createdAt.getTime()).to.equal(world.clock.now().getTime());
    const listed = await world.storefront.listOrders.execute({ customerId });
    expect(listed.items).to.deep.equal([order]);
  });

  it('refuses a product that is not on the menu with unknown_product', async () => {
    const world = aWorld();
    const { soup } = await withMenu(world);
    const items = [{ productId: soup.productId, quantity: 1 }, { productId: newId('prd'), quantity: 1 }];
    const error = await expectDomainError(world.storefront.placeOrder.execute({ customerId, items }), 'unknown_product');
    expect((error as { details: unknown }).details).to.deep.equal([{ path: 'items.1.productId', message: `no product ${items[1]!.productId} on the menu` }]);
  });

  it('refuses an unavailable product with product_unavailable', async () => {
    const world = aWorld();
    const { cake } = await withMenu(world);
    await expectDomainError(
      world.storefront.placeOrder.execute({ customerId, items: [{ productId: cake.productId, quantity: 1 }] }),
      'product_unavailable',
    );
    expect((await world.storefront.listOrders.execute({ customerId })).total).to.equal(0);
  });

  it('refuses a quantity out of range with validation_failed', async () => {
    const world = aWorld();
    const { soup } = await withMenu(world);
    await expectDomainError(
      world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 100 }] }),
      'validation_failed',
    );
  });

  describe('with an Idempotency-Key', () => {
    it('replays the first order for a retry with the same body and creates nothing', async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      const input = { customerId, items: [{ productId: soup.productId, quantity: 3 }], idempotencyKey: 'key-1' };
      const first = await world.storefront.placeOrder.execute(input);
      world.clock.advance(5_000);
      const retry = await world.storefront.placeOrder.execute(input);
      expect(retry.replayed).to.equal(true);
      expect(retry.order).to.deep.equal(first.order);
      expect((await world.storefront.listOrders.execute({ customerId })).total).to.equal(1);
    });

    it('refuses the same key with another body with idempotency_key_reused', async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      await world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 1 }], idempotencyKey: 'key-1' });
      await expectDomainError(
        world.storefront.placeOrder.execute({ customerId, items: [{ productId: soup.productId, quantity: 2 }], idempotencyKey: 'key-1' }),
        'idempotency_key_reused',
      );
      expect((await world.storefront.listOrders.execute({ customerId })).total).to.equal(1);
    });

    it('refuses a retry while the first request is in flight with idempotency_key_in_use', async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      const menu = new GatedMenu(world.adapters.menu);
      // Step by step (the claim comes before pricing); a fresh key's one-step write holds no claim
      // while it prices: the keyed-order-writes contract covers a retry then.
      const { keyedOrderWrites: _oneStep, ...stepByStep } = world.adapters;
      const storefront = createStorefront({
        ...stepByStep, menu, hasher: world.hasher, tokens: world.tokens, clock: world.clock,
      });
      const input = { customerId, items: [{ productId: soup.productId, quantity: 1 }], idempotencyKey: 'key-1' };
      const first = storefront.placeOrder.execute(input);
      await menu.reached;
      await expectDomainError(storefront.placeOrder.execute(input), 'idempotency_key_in_use');
      await expectDomainError(storefront.placeOrder.execute({ ...input, items: [{ productId: soup.productId, quantity: 2 }] }), 'idempotency_key_reused');
      menu.release();
      const placed = await first;
      expect(await storefront.placeOrder.execute(input)).to.deep.equal({ order: placed.order, replayed: true });
    });

    it('lets a retry go through after the first attempt failed', async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      const bad = { customerId, items: [{ productId: newId('prd'), quantity: 1 }], idempotencyKey: 'key-1' };
      await expectDomainError(world.storefront.placeOrder.execute(bad), 'unknown_product');
      await expectDomainError(world.storefront.placeOrder.execute(bad), 'unknown_product');
      const fixed = await world.storefront.placeOrder.execute({ ...bad, items: [{ productId: soup.productId, quantity: 1 }] });
      expect(fixed.replayed).to.equal(false);
    });

    it("scopes the key to the customer: another customer's same key places a new order", async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      const items = [{ productId: soup.productId, quantity: 1 }];
      const mine = await world.storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'shared' });
      const theirs = await world.storefront.placeOrder.execute({ customerId: newId('cus'), items, idempotencyKey: 'shared' });
      expect(theirs.replayed).to.equal(false);
      expect(theirs.order.orderId).to.not.equal(mine.order.orderId);
    });

    it('refuses a key that is not 1 to 255 visible ASCII characters', async () => {
      const world = aWorld();
      const { soup } = await withMenu(world);
      const items = [{ productId: soup.productId, quantity: 1 }];
      await expectDomainError(world.storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'has space' }), 'validation_failed');
      await expectDomainError(world.storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'x'.repeat(256) }), 'validation_failed');
    });
  });
});
