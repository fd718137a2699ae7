/** The insert/list half of the OrderRepository contract. Each test uses fresh customer ids. */
import { it } from 'mocha';
import { expect } from 'chai';
import type { Order, OrderRepository } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import { anOrder, anOrderLine, aTaxedOrder } from '../builders.js';

/** Five orders of one customer (ids unique, as every store requires), given out of order, with two sharing a timestamp. */
function fiveOrders(customerId: string): { sorted: Order[]; shuffled: Order[] } {
  const base = Date.UTC(2025, 0, 15, 12, 0, 0);
  const prefix = newId('ord');
  const at = (ms: number, suffix: string): Order =>
    anOrder({ customerId, orderId: `${prefix}${suffix}`, createdAt: new Date(base + ms) });
  const sorted = [at(0, 'e'), at(1000, 'b'), at(1000, 'c'), at(2000, 'a'), at(3000, 'd')];
  const [o1, o2, o3, o4, o5] = sorted as [Order, Order, Order, Order, Order];
  return { sorted, shuffled: [o4, o3, o1, o5, o2] };
}

/** A delivery with a tip, promised for a slot after its placement. */
function aDeliveryOrder(customerId: string): Order {
  const createdAt = new Date(Date.UTC(2030, 0, 16, 12, 0, 0));
  const items = [anOrderLine({ quantity: 2, unitPrice: 1250 })];
  return anOrder({
    customerId,
    createdAt,
    items,
    subtotal: 2500,
    deliveryFee: 250,
    tip: 200,
    amount: 2950,
    fulfilment: {
      type: 'delivery',
      time: '2030-01-16T13:07:00.000Z',
      promisedAt: new Date(Date.UTC(2030, 0, 16, 13, 0, 0)),
      address: { line1: 'Karl-Liebknecht-Str. 8', line2: 'Hinterhaus', city: 'Berlin', postalCode: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring twice' },
      zone: 'Centre',
    },
  });
}

export function orderListingContract(factory: () => Promise<OrderRepository>): void {
  it("lists only the customer's own orders, oldest first by created_at and then order_id", async () => {
    const orders = await factory();
    const customerId = newId('cus');
    const { sorted, shuffled } = fiveOrders(customerId);
    const other = anOrder({ createdAt: sorted[2]!.createdAt });
    for (const order of [...shuffled.slice(0, 2), other, ...shuffled.slice(2)]) await orders.insert(order);
    const page = await orders.listByCustomer(customerId, { page: 1, limit: 20 });
    expect(page.items).to.deep.equal(sorted);
    expect(page.total).to.equal(5);
    const theirs = await orders.listByCustomer(other.customerId, { page: 1, limit: 20 });
    expect(theirs.items).to.deep.equal([other]);
  });

  it('pages with total, page, perPage and nextPage, and nextPage is null on the last page', async () => {
    const orders = await factory();
    const customerId = newId('cus');
    const { sorted, shuffled } = fiveOrders(customerId);
    for (const order of shuffled) await orders.insert(order);
    expect(await orders.listByCustomer(customerId, { page: 1, limit: 2 })).to.deep.equal({
      items: sorted.slice(0, 2), total: 5, page: 1, perPage: 2, nextPage: 2,
    });
    expect(await orders.listByCustomer(customerId, { page: 2, limit: 2 })).to.deep.equal({
      items: sorted.slice(2, 4), total: 5, page: 2, perPage: 2, nextPage: 3,
    });
    expect(await orders.listByCustomer(customerId, { page: 3, limit: 2 })).to.deep.equal({
      items: sorted.slice(4), total: 5, page: 3, perPage: 2, nextPage: null,
    });
  });

  it('answers a page past the end with no items and the total', async () => {
    const orders = await factory();
    const customerId = newId('cus');
    for (const order of fiveOrders(customerId).shuffled) await orders.insert(order);
    expect(await orders.listByCustomer(customerId, { page: 4, limit: 2 })).to.deep.equal({
      items: [], total: 5, page: 4, perPage: 2, nextPage: null,
    });
  });

  it('answers a customer without orders with an empty first page', async () => {
    const orders = await factory();
    expect(await orders.listByCustomer(newId('cus'), { page: 1, limit: 20 })).to.deep.equal({
      items: [], total: 0, page: 1, perPage: 20, nextPage: null,
    });
  });

  it('keeps an order with all its lines exactly as inserted', async () => {
    const orders = await factory();
    const order = anOrder({
      items: [anOrderLine({ name: 'Crème brûlée', quantity: 3, unitPrice: 890 }), anOrderLine({ quantity: 1 })],
      currency: 'EUR',
    });
    await orders.insert(order);
    const [stored] = (await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items;
    expect(stored).to.deep.equal(order);
    expect(stored!.amount).to.equal(3 * 890 + 1250);
  });

  it('keeps the options of every line exactly as priced, and a line without options with none', async () => {
    const orders = await factory();
    const large = { optionId: newId('prd').replace('prd_', 'opt_'), name: 'Large', priceDelta: 400 };
    const olives = { optionId: newId('prd').replace('prd_', 'opt_'), name: 'Olives', priceDelta: 150 };
    const order = anOrder({ items: [anOrderLine({ unitPrice: 1840, options: [large, olives] }), anOrderLine({ quantity: 1 })] });
    await orders.insert(order);
    const [stored] = (await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items;
    expect(stored).to.deep.equal(order);
    expect(stored!.items.map((line) => line.options.length)).to.deep.equal([2, 0]);
    expect(await orders.findById(order.orderId)).to.deep.equal(order);
  });

  it('keeps a delivery order\'s charges, address, zone and promise exactly as inserted', async () => {
    const orders = await factory();
    const order = aDeliveryOrder(newId('cus'));
    await orders.insert(order);
    expect(await orders.findById(order.orderId)).to.deep.equal(order);
  });

  it("keeps an order's taxes, its lines' rates and whether its prices include tax exactly as inserted", async () => {
    const orders = await factory();
    for (const order of [aTaxedOrder(false), aTaxedOrder(true)]) {
      await orders.insert(order);
      expect(await orders.findById(order.orderId)).to.deep.equal(order);
      expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items).to.deep.equal([order]);
    }
    const [added, included] = [aTaxedOrder(false), aTaxedOrder(true)];
    expect([added.amount, added.taxTotal, included.amount, included.taxTotal]).to.deep.equal([4232, 392, 3840, 346]);
  });

  it('removes the delivery addresses of one customer\'s orders on erasure, keeping zone and fee, and no one else\'s', async () => {
    const orders = await factory();
    const [erased, kept] = [aDeliveryOrder(newId('cus')), aDeliveryOrder(newId('cus'))];
    const pickup = anOrder({ customerId: erased.customerId });
    for (const order of [erased, kept, pickup]) await orders.insert(order);
    await orders.eraseDeliveryAddresses(erased.customerId);
    const { address: _address, ...withoutAddress } = erased.fulfilment;
    expect(await orders.findById(erased.orderId)).to.deep.equal({ ...erased, fulfilment: withoutAddress });
    expect(await orders.findById(kept.orderId)).to.deep.equal(kept);
    expect(await orders.findById(pickup.orderId)).to.deep.equal(pickup);
    await orders.eraseDeliveryAddresses(erased.customerId);
    expect((await orders.listByCustomer(erased.customerId, { page: 1, limit: 5 })).total).to.equal(2);
  });

  it('stores the same order only once when it is inserted twice', async () => {
    const orders = await factory();
    const order = anOrder();
    await orders.insert(order);
    await orders.insert(order).catch(() => undefined);
    const page = await orders.listByCustomer(order.customerId, { page: 1, limit: 20 });
    expect(page.items).to.deep.equal([order]);
    expect(page.total).to.equal(1);
  });

  it('is not changed by edits to the order it was given', async () => {
    const orders = await factory();
    const order = anOrder();
    const expected = structuredClone(order);
    await orders.insert(order);
    order.createdAt.setTime(0);
    (order.items as unknown[]).push(anOrderLine());
    (order.items[0] as { quantity: number }).quantity = 99;
    const page = await orders.listByCustomer(order.customerId, { page: 1, limit: 20 });
    expect(page.items).to.deep.equal([expected]);
  });

  it('stores an order once: inserting its id again answers the stored order', async () => {
    const orders = await factory();
    const order = anOrder();
    expect(await orders.insert(order)).to.deep.equal({ order, inserted: true });
    const again = await orders.insert({ ...order, amount: order.amount + 1 });
    expect(again).to.deep.equal({ order, inserted: false });
    expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items).to.deep.equal([order]);
  });

  it('stores an order once when two inserts of its id race', async () => {
    const orders = await factory();
    const order = anOrder();
    const results = await Promise.all(Array.from({ length: 10 }, () => orders.insert(order)));
    expect(results.filter((r) => r.inserted)).to.have.length(1);
    expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).total).to.equal(1);
  });

  it("finds a customer's order by id, and not another customer's", async () => {
    const orders = await factory();
    const order = anOrder();
    await orders.insert(order);
    expect(await orders.findOrder(order.customerId, order.orderId)).to.deep.equal(order);
    expect(await orders.findOrder(anOrder().customerId, order.orderId)).to.equal(null);
    expect(await orders.findOrder(order.customerId, anOrder().orderId)).to.equal(null);
  });
}
