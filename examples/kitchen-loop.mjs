#!/usr/bin/env node
/**
 * A kitchen driven from code, no HTTP: customers place orders, and a kitchen loop lists the open
 * ones (oldest first), accepts them, cooks them and marks them ready, the way a kitchen screen would
 * over `GET /api/staff/orders` and `POST /api/staff/orders/{order_id}/status`. Every move is a
 * compare-and-set on the order's version, so two kitchen loops could run side by side: the loser of
 * a race is told `invalid_transition` or `precondition_failed`, never applied on top.
 *
 *   pnpm build && node examples/kitchen-loop.mjs
 */
import { createStorefront, isDomainError } from '../packages/domain/dist/src/index.js';
import { createMemoryAdapters, seedDemoData } from '../packages/adapters-memory/dist/src/index.js';
import { createCryptoAdapters } from '../packages/adapters-crypto/dist/src/index.js';

const storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 12 } }) });
await seedDemoData(storefront);

// A kitchen screen's live feed (what `GET /api/staff/events` streams): every placement and move,
// in order, each once. Changes are published right after they are stored.
const seen = { 'order.placed': 0, 'order.status': 0 };
let lastEventId = '0';
const feed = await storefront.orderFeeds.openKitchen({}, (item) => {
  if (item.kind === 'reset') return;
  seen[item.event.type] += 1;
  lastEventId = item.event.id;
});

// Two customers order (customer ids straight from the login, as the HTTP adapter gets them).
// Dishes that need no choice of options (the demo pizzas need a size).
const dishes = (await storefront.listMenu.execute()).products.filter((p) => p.available && p.optionGroups.every((g) => g.min === 0));
const placed = [];
for (const [email, password] of [['alice@example.com', 'alice-password'], ['bob@example.com', 'bob-password']]) {
  const { accessToken } = await storefront.login.execute({ email, password, client: 'kitchen-example' });
  const { customer } = await storefront.authenticate.execute(accessToken);
  for (const dish of dishes.slice(0, 2)) {
    const { order } = await storefront.placeOrder.execute({ customerId: customer.customerId, items: [{ productId: dish.productId, quantity: 1 }] });
    placed.push(order);
    console.log(`${customer.name} placed ${order.orderId}: ${dish.name}, ${order.amount} ${order.currency}`);
  }
}

// Bob changes his mind before the kitchen has looked: an owner may cancel a placed order.
const bobs = placed.at(-1);
const cancelled = await storefront.cancelOrder.execute({ customerId: bobs.customerId, orderId: bobs.orderId });
console.log(`${cancelled.orderId} cancelled by its owner (version ${cancelled.version})`);

// The kitchen loop: take the open orders oldest first, move each one step, until none is left.
const NEXT = { placed: 'accepted', accepted: 'preparing', preparing: 'ready', ready: 'completed' };
for (let round = 1; ; round++) {
  const open = await storefront.listKitchenOrders.execute({ status: 'placed,accepted,preparing,ready', limit: 100 });
  if (open.total === 0) break;
  for (const order of open.items) {
    try {
      // expectedVersion: what this screen saw; a move made meanwhile elsewhere is refused, not overwritten.
      const moved = await storefront.moveOrder.execute({ orderId: order.orderId, status: NEXT[order.status], expectedVersion: order.version });
      console.log(`round ${round}: ${moved.orderId} ${order.status} → ${moved.status}`);
    } catch (error) {
      if (!isDomainError(error, 'precondition_failed') && !isDomainError(error, 'invalid_transition')) throw error;
      console.log(`round ${round}: ${order.orderId} moved elsewhere meanwhile (${error.code})`);
    }
  }
}

// An illegal move is a DomainError with a stable code and a message naming where the order is.
const done = (await storefront.listKitchenOrders.execute({ status: 'completed' })).items[0];
try {
  await storefront.moveOrder.execute({ orderId: done.orderId, status: 'preparing' });
} catch (error) {
  if (!isDomainError(error, 'invalid_transition')) throw error;
  console.log(`refused: ${error.code}: ${error.message}`);
}
console.log(`history of ${done.orderId}: ${done.statusHistory.map((change) => change.status).join(' → ')}`);

// Store control: pause ordering, and a customer is told so before anything is stored.
await storefront.setAcceptingOrders.execute({ acceptingOrders: false });
try {
  await storefront.placeOrder.execute({ customerId: done.customerId, items: [{ productId: dishes[0].productId, quantity: 1 }] });
} catch (error) {
  if (!isDomainError(error, 'store_closed')) throw error;
  console.log(`paused: ${error.code}: ${error.message}`);
}

// Everything stored has been published to the feed; a screen that reconnects resumes after its last id.
await storefront.orderEvents.drain();
feed.close();
console.log(`kitchen feed: ${seen['order.placed']} placed, ${seen['order.status']} status changes, last event ${lastEventId}`);
