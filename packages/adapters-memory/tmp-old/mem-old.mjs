import { InMemoryOrderRepository } from '/work/main/packages/adapters-memory/tmp-old/out/in-memory-order-repository.js';
import { OrderStamper, placedState, newId } from '/work/main/packages/domain/dist/src/index.js';
const moves = process.argv[2] === 'moves';
const orders = new InMemoryOrderRepository(); const stamper = new OrderStamper();
const customers = Array.from({ length: Number(process.argv[3] ?? 1000) }, () => newId('cus'));
const line = { productId: 'prd_x', name: 'x', quantity: 1, unitPrice: 100, lineTotal: 100 };
const start = Date.UTC(2025,0,1);
global.gc(); const base = process.memoryUsage().heapUsed;
let t = process.hrtime.bigint();
for (let i = 0; i < 1e6; i++) { const { orderId, createdAt } = stamper.next(new Date(start + i));
  await orders.insert({ orderId, customerId: customers[i % customers.length], items: [line], amount: 100, currency: 'USD', createdAt, ...placedState(createdAt) });
  if (moves && i%3===1) await orders.applyMove({ orderId, fromVersion: 1, status: 'accepted', at: new Date(start) }); }
console.log('ms', Number(process.hrtime.bigint()-t)/1e6);
global.gc(); console.log('heap MB', (process.memoryUsage().heapUsed-base)/1e6, (await orders.listByCustomer(customers[0],{page:1,limit:1})).total);
