#!/usr/bin/env node
/**
 * Storefront embedded in a plain script, no HTTP: the domain's use cases over the in-memory
 * adapters and the crypto adapters (scrypt, PASETO). Places orders and lists them.
 *
 *   pnpm build && node examples/embed-orders.mjs
 *
 * Inside this repository the packages are imported from their build output; an application that
 * depends on them writes `from '@storefront/domain'` and so on (packages/domain/README.md).
 */
import { createStorefront, isDomainError } from '../packages/domain/dist/src/index.js';
import { createMemoryAdapters } from '../packages/adapters-memory/dist/src/index.js';
import { createCryptoAdapters } from '../packages/adapters-crypto/dist/src/index.js';

// 1. Adapters for every port, then every use case wired from them.
const memory = createMemoryAdapters();
const crypto = createCryptoAdapters({ scrypt: { logN: 14 } }); // 16 MiB per hash: quick, still scrypt
const storefront = createStorefront({ ...memory, ...crypto });

// 2. A menu and a customer (validated and hashed by the use cases, as over HTTP).
const menu = await storefront.importMenu.execute({
  products: [
    { name: 'Margherita', description: 'Tomato, mozzarella, basil.', category: 'Pizza', price: 1290, currency: 'USD', tags: ['vegetarian'] },
    { name: 'Tiramisu', description: 'Mascarpone, coffee, cocoa.', category: 'Desserts', price: 700, currency: 'USD', tags: [] },
    { name: 'Truffle risotto', description: 'Seasonal.', category: 'Mains', price: 2400, currency: 'USD', tags: [], available: false },
  ],
});
console.log(`menu: ${menu.length} dishes`);
await storefront.registerCustomer.execute({ email: 'ann@example.com', name: 'Ann', password: 'a-long-password' });

// 3. Log in and turn the access token back into a caller, as the HTTP adapter does per request.
const tokens = await storefront.login.execute({ email: 'ann@example.com', password: 'a-long-password', client: 'embed-example' });
const caller = await storefront.authenticate.execute(tokens.accessToken);
const customerId = caller.customer.customerId;
console.log(`logged in as ${caller.customer.email} (${customerId}), token valid ${tokens.expiresIn} s`);

// 4. Place an order. The server side prices it; an Idempotency-Key makes a retry safe.
const byName = new Map((await storefront.listMenu.execute()).products.map((p) => [p.name, p]));
const items = [
  { productId: byName.get('Margherita').productId, quantity: 2 },
  { productId: byName.get('Tiramisu').productId, quantity: 1 },
];
const first = await storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'checkout-1' });
const lines = first.order.items.map((line) => `${line.quantity} x ${line.name}`).join(' + ');
console.log(`order ${first.order.orderId}: ${lines} = ${first.order.amount} ${first.order.currency}`);
const retry = await storefront.placeOrder.execute({ customerId, items, idempotencyKey: 'checkout-1' });
console.log(`retry with the same key: replayed ${retry.replayed}, same order ${retry.order.orderId === first.order.orderId}`);

// 5. Failures are DomainErrors with a stable code (and details), never HTTP statuses.
for (const bad of [[{ productId: 'prd_nosuchdish', quantity: 1 }], [{ productId: byName.get('Truffle risotto').productId, quantity: 1 }]]) {
  try {
    await storefront.placeOrder.execute({ customerId, items: bad });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    console.log(`refused: ${error.code} (${error.details?.map((d) => `${d.path}: ${d.message}`).join('; ')})`);
  }
}
await storefront.placeOrder.execute({ customerId, items: [{ productId: byName.get('Tiramisu').productId, quantity: 3 }] });

// 6. The customer's orders, oldest first, one page at a time.
const page = await storefront.listOrders.execute({ customerId, page: 1, limit: 20 });
const total = page.items.reduce((sum, order) => sum + order.amount, 0);
console.log(`orders: ${page.total} (page ${page.page}, next ${page.nextPage}), ${total} USD in all`);
