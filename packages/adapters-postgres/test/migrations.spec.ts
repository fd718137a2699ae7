/**
 * Migrations: each one is tested from the schema before it with data in it (UPGRADES: the next
 * migration adds its case there), re-running is a no-op, several instances starting at once
 * migrate once, and a schema newer than the code is refused and left alone.
 */
import { createHash } from 'node:crypto';
import { createTestDatabaseOrSkip, aCustomer, anOrder, anUnpaidOrder, aTaxedOrder, aWebhookEndpoint, aWebhookEvent, type TestDatabase } from '@storefront/testing';
import { ORDER_STATUSES, type Order, type Product } from '@storefront/domain';
import { applyOrderMove, OPEN_STATUSES, planMove, type OrderMove } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import pg from 'pg';
import { listsOutOfPlace } from './list-positions.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { webhooks } from '../src/migrations/004-webhooks.js';
import { slotPlaceLeases } from '../src/migrations/005-slot-place-leases.js';
import { webhookRetention } from '../src/migrations/006-webhook-retention.js';
import { erasurePending } from '../src/migrations/007-erasure-pending.js';
import { taxes } from '../src/migrations/008-taxes.js';
import { providerEvents } from '../src/migrations/009-provider-events.js';
import { orderPayments } from '../src/migrations/010-order-payments.js';
import { historyEntry, INSERT_ORDER, orderParameters } from '../src/order-mapper.js';
import {
  createPostgresAdapters,
  migrate,
  PostgresOrderRepository,
  postgresStartError,
  SCHEMA_VERSION,
  SchemaNotMigratedError,
  SchemaTooNewError,
} from '../src/index.js';

/** The first 16 hex digits of SHA-256 of each migration's SQL, version 1 first. */
const RELEASED_SQL_SHA256: readonly string[] = [
  '9f861ceff3fe4394',
  '60738513c86f29a9',
  '358e48a91a7b641a',
  '2871a88975de0930',
  '56b2c4668c37e29a',
  'd61ed54bddf2d770',
  '097ed87c32dba891',
  '8524a222a1a372c5',
  'bea5898288b8fe08',
  '74714e28d3227144',
  '830e0c631d578fe2',
];

interface Upgrade {
  /** The version this case migrates to. */
  readonly to: number;
  /** Writes data on the schema of version `to - 1`. */
  seed(pool: pg.Pool): Promise<void>;
  /** Checks the seeded data (and the new schema) after the migration. */
  check(pool: pg.Pool): Promise<void>;
}

const UPGRADES: readonly Upgrade[] = [
  {
    to: 1,
    // From an empty database: nothing to keep, every port works afterwards.
    seed: async () => undefined,
    check: async (pool) => {
      const adapters = await createPostgresAdapters({ pool });
      const customer = aCustomer();
      await adapters.customers.create(customer);
      const order = anOrder({ customerId: customer.customerId });
      await adapters.orders.insert(order);
      expect((await adapters.orders.listByCustomer(customer.customerId, { page: 1, limit: 5 })).items).to.deep.equal([order]);
      expect((await adapters.orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 5 })).items).to.deep.equal([order]);
      expect(await adapters.storeState.get()).to.deep.equal({ acceptingOrders: true });
    },
  },
  {
    to: 2,
    // Orders of version 1 read as pickup, promised when placed, subtotal = amount, in the same
    // place of every list; new orders sort into the kitchen's queue by promise.
    seed: async (pool) => {
      for (const [id, at] of [['ord_v1a', '2025-01-15T12:00:00Z'], ['ord_v1b', '2025-01-15T12:05:00Z']] as const) {
        await pool.query(
          `INSERT INTO orders (order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history)
           VALUES ($1, 'cus_v1', '[{"productId":"prd_x","name":"Soup","quantity":1,"unitPrice":450,"lineTotal":450,"options":[]}]', 450, 'USD', $2, 'placed', 1, $2, $3)`,
          [id, at, JSON.stringify([{ status: 'placed', at }])],
        );
      }
    },
    check: async (pool) => {
      const adapters = await createPostgresAdapters({ pool });
      const old = await adapters.orders.findById('ord_v1a');
      expect(old).to.deep.include({ subtotal: 450, deliveryFee: 0, tip: 0, amount: 450 });
      expect(old?.fulfilment).to.deep.equal({ type: 'pickup', time: 'asap', promisedAt: new Date('2025-01-15T12:00:00Z') });
      const preOrder = anOrder({ customerId: 'cus_v1', createdAt: new Date('2025-01-15T11:00:00Z'), fulfilment: { type: 'pickup', time: '2025-01-15T13:00:00.000Z', promisedAt: new Date('2025-01-15T13:00:00Z') } });
      await adapters.orders.insert(preOrder);
      const queue = await adapters.orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 5 });
      expect(queue.items.map((order) => order.orderId)).to.deep.equal(['ord_v1a', 'ord_v1b', preOrder.orderId]);
      expect(await listsOutOfPlace(pool)).to.deep.equal([]);
      // The slot tables (used through the adapter from version 5 on, when places gained leases).
      await pool.query('INSERT INTO slot_places (slot, taken) VALUES ($1, 1)', [preOrder.fulfilment.promisedAt]);
      await pool.query('INSERT INTO slot_holders (slot, order_id) VALUES ($1, $2)', [preOrder.fulfilment.promisedAt, preOrder.orderId]);
    },
  },
  {
    to: 3,
    // Orders placed and moved on version 2 (positions given at insert) keep every position; orders
    // placed after are numbered by readers into the same lists, in the same order, paged alike.
    seed: async (pool) => {
      // The repository's statements as they were at version 2 (its triggers give the positions).
      for (const order of V2_ORDERS) await insertAtVersion2(pool, order);
      const accept = planMove(V2_ORDERS[1]!, { to: 'accepted', by: 'staff' }, new Date('2025-03-01T12:30:00Z'));
      await moveAtVersion2(pool, accept);
      await moveAtVersion2(pool, planMove(V2_ORDERS[4]!, { to: 'rejected', by: 'staff', reason: 'Out of dough' }, new Date('2025-03-01T12:31:00Z')));
      await moveAtVersion2(pool, planMove(applyOrderMove(V2_ORDERS[1]!, accept), { to: 'preparing', by: 'staff' }, new Date('2025-03-01T12:32:00Z')));
      positionsAtV2 = await positions(pool);
    },
    check: async (pool) => {
      expect(await positions(pool), 'every order of version 2, at its positions').to.deep.equal(positionsAtV2);
      expect(await listsOutOfPlace(pool, { numberWaiting: false })).to.deep.equal([]);
      const { orders } = await createPostgresAdapters({ pool });
      const queueBefore = (await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 20 })).items;
      // New orders: one placed late, one promised before every open order, one of a new customer.
      const late = anOrder({ customerId: 'cus_v2a', createdAt: new Date('2025-03-01T13:00:00Z') });
      const early = anOrder({
        customerId: 'cus_v2b',
        createdAt: new Date('2025-03-01T13:01:00Z'),
        fulfilment: { type: 'pickup', time: '2025-03-01T11:00:00.000Z', promisedAt: new Date('2025-03-01T11:00:00Z') },
      });
      const other = anOrder({ customerId: 'cus_v3', createdAt: new Date('2025-03-01T13:02:00Z') });
      for (const order of [late, early, other]) expect((await orders.insert(order)).inserted).to.equal(true);
      const queue = await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 20 });
      expect(queue.items.map((order) => order.orderId)).to.deep.equal(inKitchenOrder([...queueBefore, late, early, other]));
      expect(queue.items[0]?.orderId, 'the order promised first leads').to.equal(early.orderId);
      expect(queue.total).to.equal(queueBefore.length + 3);
      // Paging: page 2 of 2 per page is the 3rd and 4th of the queue, with the same total.
      const page2 = await orders.listByStatus(OPEN_STATUSES, { page: 2, limit: 2 });
      expect(page2.items.map((order) => order.orderId)).to.deep.equal(queue.items.slice(2, 4).map((order) => order.orderId));
      expect(page2.total).to.equal(queue.total);
      const mine = await orders.listByCustomer('cus_v2a', { page: 1, limit: 20 });
      const v2Mine = V2_ORDERS.filter((order) => order.customerId === 'cus_v2a').sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      expect(mine.items.map((order) => order.orderId)).to.deep.equal([...v2Mine.map((order) => order.orderId), late.orderId]);
      // Moves of an order of version 2 and of a new one keep every list in place.
      await orders.applyMove(planMove(V2_ORDERS[0]!, { to: 'accepted', by: 'staff' }, new Date('2025-03-01T13:10:00Z')));
      await orders.applyMove(planMove(other, { to: 'cancelled', by: 'owner', reason: 'Changed my mind' }, new Date('2025-03-01T13:11:00Z')));
      expect(await listsOutOfPlace(pool)).to.deep.equal([]);
      const after = await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 20 });
      expect(after.items.map((order) => order.orderId)).to.deep.equal(queue.items.map((order) => order.orderId).filter((id) => id !== other.orderId));
    },
  },
  {
    // Webhooks (file 004: its version is its place in MIGRATIONS, after 003 once that is merged).
    // Orders and customers stored before keep reading as they did; both webhook stores work.
    to: MIGRATIONS.indexOf(webhooks) + 1,
    seed: async (pool) => {
      await pool.query(
        `INSERT INTO customers (customer_id, email, name, password_hash, created_at)
         VALUES ('cus_before_webhooks', 'before@example.com', 'Before', 'x', '2025-01-15T11:00:00Z')`,
      );
    },
    check: async (pool) => {
      const adapters = await createPostgresAdapters({ pool });
      expect(await adapters.customers.findById('cus_before_webhooks')).to.deep.include({ email: 'before@example.com' });
      const endpoint = aWebhookEndpoint();
      await adapters.webhookEndpoints.create(endpoint);
      expect(await adapters.webhookEndpoints.get(endpoint.webhookId)).to.deep.equal(endpoint);
      const event = aWebhookEvent();
      await adapters.webhookDeliveryQueue.enqueue(event, [endpoint.webhookId]);
      const [leased] = await adapters.webhookDeliveryQueue.lease({ now: event.createdAt, limit: 5, leaseMs: 1000, webhookIds: [endpoint.webhookId] });
      expect(leased?.eventId).to.equal(event.eventId);
      expect(await adapters.webhookDeliveryQueue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'delivered', at: event.createdAt, statusCode: 200 })).to.equal(true);
      expect(await adapters.webhookDeliveryQueue.stats()).to.deep.equal({ pending: 0 });
    },
  },
  {
    // Slot places pending until their order is stored (file 005): places taken before hold for
    // good (never lapse), and count as before against the capacity.
    to: MIGRATIONS.indexOf(slotPlaceLeases) + 1,
    seed: async (pool) => {
      await pool.query(`INSERT INTO slot_places (slot, taken) VALUES ('2025-04-01T12:00:00Z', 1)`);
      await pool.query(`INSERT INTO slot_holders (slot, order_id) VALUES ('2025-04-01T12:00:00Z', 'ord_before_leases')`);
    },
    check: async (pool) => {
      const { slotPlaces } = await createPostgresAdapters({ pool });
      const slot = new Date('2025-04-01T12:00:00Z');
      const later = new Date('2100-01-01T00:00:00Z');
      expect(await slotPlaces.lapsed(slot, new Date(slot.getTime() + 1), later)).to.deep.equal([]);
      expect(await slotPlaces.take(slot, 'ord_before_leases', 2, later)).to.equal(true);
      expect(await slotPlaces.lapsed(slot, new Date(slot.getTime() + 1), later)).to.deep.equal([]);
      expect(await slotPlaces.take(slot, 'ord_after', 2, slot)).to.equal(true);
      expect(await slotPlaces.take(slot, 'ord_third', 2, slot)).to.equal(false);
      expect(await slotPlaces.lapsed(slot, new Date(slot.getTime() + 1), later)).to.deep.equal([{ slot, orderId: 'ord_after' }]);
    },
  },
  {
    // Webhook retention (file 006): a delivery finished before it has no expiry and stays; one finished after goes at its time.
    to: MIGRATIONS.indexOf(webhookRetention) + 1,
    seed: async (pool) => {
      await pool.query(
        `INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, payload, created_at, status, attempts, delivered_at)
         VALUES ('wdl_before_retention', 'whk_before_retention', 'msg_before', 'webhook.test', '{}', '2025-01-15T11:00:00Z', 'delivered', 1, '2025-01-15T11:00:01Z')`,
      );
    },
    check: async (pool) => {
      const { webhookDeliveryQueue, webhookDeliveryLog, webhookDeliveryUpkeep } = await createPostgresAdapters({ pool });
      const event = aWebhookEvent({ type: 'webhook.test' });
      await webhookDeliveryQueue.enqueue(event, ['whk_before_retention']);
      const [leased] = await webhookDeliveryQueue.lease({ now: event.createdAt, limit: 5, leaseMs: 1000, webhookIds: ['whk_before_retention'] });
      await webhookDeliveryQueue.record(leased!.deliveryId, leased!.leaseToken, { kind: 'delivered', at: event.createdAt, statusCode: 200, keepUntil: event.createdAt });
      expect(await webhookDeliveryUpkeep.removeExpired(new Date(Date.UTC(2100, 0, 1)), 10)).to.equal(1);
      expect((await webhookDeliveryLog.get('whk_before_retention', 'wdl_before_retention'))?.status).to.equal('delivered');
    },
  },
  {
    // Erasure pending (file 007): accounts stored before are live, none is pending; a mark works.
    to: MIGRATIONS.indexOf(erasurePending) + 1,
    seed: async (pool) => {
      await pool.query(
        `INSERT INTO customers (customer_id, email, name, password_hash, created_at)
         VALUES ('cus_before_erasure', 'before-erasure@example.com', 'Before', 'x', '2025-01-15T11:00:00Z')`,
      );
    },
    check: async (pool) => {
      const { customers, pendingErasures } = await createPostgresAdapters({ pool });
      expect(await customers.findById('cus_before_erasure')).to.deep.include({ email: 'before-erasure@example.com' });
      expect(await pendingErasures.list(10)).to.deep.equal([]);
      expect(await pendingErasures.mark('cus_before_erasure', new Date('2025-01-16T00:00:00Z'))).to.equal(true);
      expect(await pendingErasures.list(10)).to.deep.equal(['cus_before_erasure']);
      expect(await customers.findById('cus_before_erasure')).to.equal(null);
    },
  },
  {
    // Taxes (file 008): orders and lines stored before read untaxed (false, [], 0, lines at 0) and
    // still move; products stored before take the store's rate; taxed orders and rates round-trip.
    to: MIGRATIONS.indexOf(taxes) + 1,
    seed: async (pool) => {
      const at = '2025-05-01T12:00:00Z';
      await pool.query(
        `INSERT INTO orders (order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, subtotal, delivery_fee, tip, fulfilment, promised_at)
         VALUES ('ord_before_taxes', 'cus_before_taxes', '[{"productId":"prd_x","name":"Soup","quantity":2,"unitPrice":450,"lineTotal":900,"options":[]}]', 1150, 'USD', $1, 'placed', 1, $1, $2,
                 900, 250, 0, '{"type":"delivery","time":"asap","zone":"Centre"}', $1)`,
        [at, JSON.stringify([{ status: 'placed', at }])],
      );
      await pool.query(
        `INSERT INTO products (product_id, name_key, name, description, category, price, currency, tags, available)
         VALUES ('prd_before_taxes', 'soup before taxes', 'Soup before taxes', 'Hot.', 'Soups', 450, 'USD', '{}', true)`,
      );
    },
    check: async (pool) => {
      const { orders, menu } = await createPostgresAdapters({ pool });
      const old = await orders.findById('ord_before_taxes');
      expect(old).to.deep.include({ subtotal: 900, deliveryFee: 250, amount: 1150, pricesIncludeTax: false, taxes: [], taxTotal: 0 });
      expect(old!.items.map((line) => line.taxRate)).to.deep.equal([0]);
      const moved = await orders.applyMove(planMove(old!, { to: 'accepted', by: 'staff' }, new Date('2025-05-01T12:05:00Z')));
      expect(moved).to.deep.include({ taxes: [], taxTotal: 0, pricesIncludeTax: false });
      const [product] = await menu.findByIds(['prd_before_taxes']);
      expect(product).to.not.have.property('taxRate');
      const [rated] = await menu.upsertByName([{ ...product!, optionGroups: [], taxRate: 700 as NonNullable<Product['taxRate']> }]);
      expect(rated).to.deep.include({ productId: 'prd_before_taxes', taxRate: 700 });
      for (const order of [aTaxedOrder(false), aTaxedOrder(true)]) {
        await orders.insert(order);
        expect(await orders.findById(order.orderId)).to.deep.equal(order);
      }
    },
  },
  {
    // Provider events (file 009): a new table; orders stored before still read and move, and an
    // event id is claimed once, completed, and forgotten by retention.
    to: MIGRATIONS.indexOf(providerEvents) + 1,
    seed: async (pool) => {
      const at = '2025-06-01T12:00:00Z';
      await pool.query(
        `INSERT INTO orders (order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, subtotal, delivery_fee, tip, fulfilment, promised_at)
         VALUES ('ord_before_events', 'cus_before_events', '[{"productId":"prd_x","name":"Soup","quantity":1,"unitPrice":450,"lineTotal":450,"options":[]}]', 450, 'USD', $1, 'placed', 1, $1, $2,
                 450, 0, 0, '{"type":"pickup","time":"asap"}', $1)`,
        [at, JSON.stringify([{ status: 'placed', at }])],
      );
    },
    check: async (pool) => {
      const { orders, providerEvents: events } = await createPostgresAdapters({ pool });
      const old = await orders.findById('ord_before_events');
      expect(old).to.deep.include({ amount: 450, status: 'placed' });
      await orders.applyMove(planMove(old!, { to: 'accepted', by: 'staff' }, new Date('2025-06-01T12:05:00Z')));
      const received = new Date('2025-06-01T12:06:00Z');
      expect(await events.claim('stripe', 'evt_after_upgrade', received)).to.equal(true);
      expect(await events.claim('stripe', 'evt_after_upgrade', received)).to.equal(false);
      await events.complete('stripe', 'evt_after_upgrade', received);
      expect(await events.removeBefore(new Date('2025-06-02T00:00:00Z'), 10)).to.equal(1);
    },
  },
  {
    // Order payments (file 010): orders stored before read and move without a payment (no key);
    // an awaiting order keeps its payment, lists under its own status (not the kitchen's), is found
    // by its intent and due for its check, and moves to placed with its payment; lists stay in place.
    to: MIGRATIONS.indexOf(orderPayments) + 1,
    seed: async (pool) => {
      const at = '2025-07-01T12:00:00Z';
      await pool.query(
        `INSERT INTO orders (order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, subtotal, delivery_fee, tip, fulfilment, promised_at)
         VALUES ('ord_before_payments', 'cus_before_payments', '[{"productId":"prd_x","name":"Soup","quantity":1,"unitPrice":450,"lineTotal":450,"options":[]}]', 450, 'USD', $1, 'placed', 1, $1, $2,
                 450, 0, 0, '{"type":"pickup","time":"asap"}', $1)`,
        [at, JSON.stringify([{ status: 'placed', at }])],
      );
    },
    check: async (pool) => {
      const { orders, orderPayments: payments } = await createPostgresAdapters({ pool });
      const old = await orders.findById('ord_before_payments');
      expect(old).to.deep.include({ amount: 450, status: 'placed' });
      expect(old).not.to.have.property('payment');
      const accepted = await orders.applyMove(planMove(old!, { to: 'accepted', by: 'staff' }, new Date('2025-07-01T12:05:00Z')));
      expect(accepted).not.to.have.property('payment');
      // An instance of the previous release, still running, moves with the function it knows.
      await moveAtVersion2(pool, planMove(accepted!, { to: 'preparing', by: 'staff' }, new Date('2025-07-01T12:06:00Z')));
      expect(await orders.findById('ord_before_payments')).to.deep.include({ status: 'preparing', version: 3 });
      const unpaid = anUnpaidOrder({ checkAt: new Date('2025-07-01T12:02:00Z') }, { createdAt: new Date('2025-07-01T12:00:30Z') });
      await orders.insert(unpaid);
      expect((await orders.listByStatus(['awaiting_payment'], { page: 1, limit: 5 })).items).to.deep.equal([unpaid]);
      expect((await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 5 })).items.map((order) => order.orderId)).to.deep.equal(['ord_before_payments']);
      expect(await payments.findByIntent(unpaid.payment!.intentId)).to.deep.equal(unpaid);
      const lease = new Date('2025-07-01T12:03:00Z');
      expect((await payments.claimChecks(new Date('2025-07-01T12:02:00Z'), lease, 5)).map((order) => order.payment!.checkAt)).to.deep.equal([lease]);
      const leased = (await orders.findById(unpaid.orderId))!;
      const move = { ...planMove(leased, { to: 'placed', by: 'payment' }, new Date('2025-07-01T12:02:30Z')), payment: { ...leased.payment!, status: 'authorized' as const, checkAt: null } };
      expect(await orders.applyMove(move)).to.deep.equal(applyOrderMove(leased, move));
      expect(await listsOutOfPlace(pool)).to.deep.equal([]);
    },
  },
  {
    to: 11,
    // Lists numbered by version 10's functions stay as they are; afterwards an order arriving in
    // time order is appended, one arriving late still takes its place before the numbered ones.
    seed: async (pool) => {
      for (const order of V11_ORDERS.slice(0, 2)) await insertNow(pool, order);
      await pool.query('SELECT storefront_number_kitchen(500)');
      await pool.query("SELECT storefront_number_customer('cus_v11', 500)");
      positionsAtV10 = await positions(pool);
    },
    check: async (pool) => {
      expect(await positions(pool)).to.deep.equal(positionsAtV10);
      const { orders } = await createPostgresAdapters({ pool });
      for (const order of V11_ORDERS.slice(2)) await orders.insert(order);
      const listed = await orders.listByCustomer('cus_v11', { page: 1, limit: 10 });
      expect(listed.items.map((order) => order.orderId)).to.deep.equal(V11_ORDERS.map((order) => order.orderId).sort((a, b) => byCreation(a) - byCreation(b)));
      expect((await orders.listByStatus(OPEN_STATUSES, { page: 1, limit: 10 })).items.map((order) => order.orderId)).to.deep.equal(inKitchenOrder(V11_ORDERS));
      expect(await listsOutOfPlace(pool)).to.deep.equal([]);
    },
  },
];

/** Two orders numbered at version 10, then one after them and one that arrives late (created first). */
const V11_ORDERS: readonly Order[] = ['2025-08-01T12:01:00Z', '2025-08-01T12:02:00Z', '2025-08-01T12:03:00Z', '2025-08-01T12:00:00Z'].map((at) =>
  anOrder({ customerId: 'cus_v11', createdAt: new Date(at) }),
);
const byCreation = (orderId: string) => V11_ORDERS.find((order) => order.orderId === orderId)!.createdAt.getTime();
let positionsAtV10: unknown[] = [];

/** INSERT of an order as the repository writes it now (the columns have not changed since version 10). */
async function insertNow(pool: pg.Pool, order: Order): Promise<void> {
  await pool.query(INSERT_ORDER, orderParameters(order));
}

/** INSERT of an order as the repository wrote it at version 2: the columns up to promised_at. */
async function insertAtVersion2(pool: pg.Pool, order: Order): Promise<void> {
  const columns = 'order_id, customer_id, items, amount, currency, created_at, status, version, updated_at, status_history, reason, subtotal, delivery_fee, tip, fulfilment, promised_at';
  await pool.query(`INSERT INTO orders (${columns}) VALUES (${Array.from({ length: 16 }, (_, i) => `$${i + 1}`).join(', ')})`, orderParameters(order).slice(0, 16));
}

/** A move as the repository made it from version 2 to 9 (the function is version 1's). */
async function moveAtVersion2(pool: pg.Pool, move: OrderMove): Promise<void> {
  await pool.query('SELECT order_id FROM storefront_move_order($1, $2, $3, $4, $5, $6)', [move.orderId, move.fromVersion, move.status, move.at, move.reason ?? null, JSON.stringify(historyEntry(move))]);
}

/** Orders of two customers, created out of time order, one promised for later. */
const V2_ORDERS: readonly Order[] = [
  ['cus_v2a', '2025-03-01T12:02:00Z'],
  ['cus_v2b', '2025-03-01T12:00:00Z'],
  ['cus_v2a', '2025-03-01T12:01:00Z', '2025-03-01T14:00:00Z'],
  ['cus_v2a', '2025-03-01T12:03:00Z'],
  ['cus_v2b', '2025-03-01T12:04:00Z'],
].map(([customerId, at, promised]) => {
  const createdAt = new Date(at!);
  if (customerId === undefined) throw new Error('a customer per order');
  const promisedAt = promised === undefined ? createdAt : new Date(promised);
  return anOrder({ customerId, createdAt, fulfilment: { type: 'pickup', time: promised === undefined ? 'asap' : promisedAt.toISOString(), promisedAt } });
});
let positionsAtV2: unknown[] = [];

/** The kitchen's order (promise, creation, id), written out independently of the store. */
function inKitchenOrder(orders: readonly Order[]): string[] {
  const key = (order: Order) => [order.fulfilment.promisedAt.getTime(), order.createdAt.getTime(), order.orderId] as const;
  return [...orders]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || x[1] - y[1] || (x[2] < y[2] ? -1 : x[2] > y[2] ? 1 : 0);
    })
    .map((order) => order.orderId);
}

/** Every order's positions in its lists. */
async function positions(pool: pg.Pool): Promise<unknown[]> {
  const result = await pool.query('SELECT order_id, status, customer_seq, status_seq, open_seq FROM orders ORDER BY order_id');
  return result.rows;
}

async function versions(pool: pg.Pool): Promise<number[]> {
  const result = await pool.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
  return result.rows.map((row) => row.version);
}

describe('PostgreSQL migrations', () => {
  let databases: TestDatabase[] = [];
  const fresh = async (context: Mocha.Context): Promise<TestDatabase> => {
    const database = await createTestDatabaseOrSkip(context, 'storefront_migrate');
    databases.push(database);
    return database;
  };
  afterEach(async function () {
    this.timeout(30_000);
    await Promise.all(databases.map((database) => database.drop()));
    databases = [];
  });

  it('keeps every released migration as it was released (a database that applied one never sees an edit)', () => {
    const released = MIGRATIONS.map((migration) => createHash('sha256').update(migration.sql).digest('hex').slice(0, 16));
    expect(released).to.deep.equal(RELEASED_SQL_SHA256.slice(0, released.length));
    expect(released, 'a new migration adds its hash here').to.have.length(RELEASED_SQL_SHA256.length);
  });

  it('has a tested upgrade for every migration', () => {
    expect(UPGRADES.map((upgrade) => upgrade.to)).to.deep.equal(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  for (const upgrade of UPGRADES) {
    it(`migrates to version ${upgrade.to} from version ${upgrade.to - 1} with data in it`, async function () {
      const { pool } = await fresh(this);
      await migrate(pool, { to: upgrade.to - 1 });
      await upgrade.seed(pool);
      const logged: string[] = [];
      expect(await migrate(pool, { to: upgrade.to, log: (message) => logged.push(message) })).to.deep.equal({ from: upgrade.to - 1, to: upgrade.to });
      expect(logged).to.have.length(1);
      await migrate(pool);
      await upgrade.check(pool);
    });
  }

  it('does nothing when run again on a migrated database', async function () {
    const { pool } = await fresh(this);
    expect(await migrate(pool)).to.deep.equal({ from: 0, to: SCHEMA_VERSION });
    const logged: string[] = [];
    expect(await migrate(pool, { log: (message) => logged.push(message) })).to.deep.equal({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    expect(logged).to.deep.equal([]);
    expect(await versions(pool)).to.deep.equal(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('migrates once when six instances start at once, and every one of them starts', async function () {
    const { url } = await fresh(this);
    // One pool per instance: six sessions race for the advisory lock.
    // Each ignores a connection the database's drop ends, as the suites' own pools do.
    const pools = Array.from({ length: 6 }, () => new pg.Pool({ connectionString: url, max: 1 }).on('error', () => undefined));
    try {
      const results = await Promise.all(pools.map((pool) => migrate(pool)));
      expect(results.filter((result) => result.from === 0)).to.have.length(1);
      expect(results.filter((result) => result.from === SCHEMA_VERSION)).to.have.length(5);
      expect(await versions(pools[0]!)).to.deep.equal(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      await Promise.all(pools.map((pool) => createPostgresAdapters({ pool })));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('refuses a schema newer than the code, changes nothing, and says so as a fatal start-up error', async function () {
    const { pool } = await fresh(this);
    await migrate(pool);
    await pool.query("INSERT INTO schema_migrations (version, name) VALUES ($1, 'from the future')", [SCHEMA_VERSION + 1]);
    const refused = await migrate(pool).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(SchemaTooNewError);
    expect(refused).to.include({ found: SCHEMA_VERSION + 1, supported: SCHEMA_VERSION });
    expect(postgresStartError(refused).fatal).to.equal(true);
    expect(await versions(pool)).to.deep.equal([...Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1), SCHEMA_VERSION + 1]);
    const adapters = await createPostgresAdapters({ pool }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(adapters).to.be.instanceOf(SchemaTooNewError);
  });

  it('will not make adapters on a database that was never migrated', async function () {
    const { pool } = await fresh(this);
    const refused = await createPostgresAdapters({ pool }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(SchemaNotMigratedError);
    expect(postgresStartError(refused).fatal).to.equal(true);
  });

  it("keeps the schema's open statuses (the kitchen's queue) the domain's OPEN_STATUSES", async function () {
    const { pool } = await fresh(this);
    await migrate(pool);
    for (const status of ORDER_STATUSES) {
      const result = await pool.query<{ open: boolean }>('SELECT storefront_order_is_open($1) AS open', [status]);
      expect(result.rows[0]!.open, status).to.equal(OPEN_STATUSES.includes(status));
    }
  });
});
