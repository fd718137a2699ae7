import {
  anOrder,
  describeCustomerRepositoryContract,
  describeMenuRepositoryContract,
  describeOrderPlacementFaultsContract,
  describeOrderRepositoryContract,
  describeSessionStoreContract,
} from '@storefront/testing';
import { newId } from '@storefront/domain';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import { COLLECTIONS, createMongoAdapters, INDEXES, type MongoAdapters, type OrderDocument } from '../src/index.js';
import { findCustomerOrders } from '../src/order-queries.js';
import { useTestDatabase } from './mongo-server.js';

describe('Mongo adapters', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
  });

  describeMenuRepositoryContract('MongoMenuRepository', async () => adapters.menu);
  describeOrderRepositoryContract('MongoOrderRepository', async () => adapters.orders);
  describeOrderPlacementFaultsContract('MongoOrderRepository', async () => ({ orders: adapters.orders, menu: adapters.menu }));
  describeCustomerRepositoryContract('MongoCustomerRepository', async () => adapters.customers);
  describeSessionStoreContract('MongoSessionStore', async () => adapters.sessions);

  describe('createMongoAdapters', () => {
    it('can be run again on the same database (its indexes already exist)', async () => {
      const again = await createMongoAdapters({ db: db() });
      expect(await again.menu.revision()).to.equal(await adapters.menu.revision());
    });

    it('has a store probe that pings the database', async () => {
      expect(adapters.probes.map((probe) => probe.name)).to.deep.equal(['store']);
      await adapters.probes[0]!.check();
    });
  });

  describe('order listing', () => {
    it("reads a customer's page from the orders_by_customer index, without sorting in memory", async () => {
      const customerId = newId('cus');
      for (let i = 0; i < 5; i++) await adapters.orders.insert(anOrder({ customerId, createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) }));
      const orders = db().collection<OrderDocument>(COLLECTIONS.orders);
      const explained = await findCustomerOrders(orders, customerId, { page: 2, limit: 2 }).explain('queryPlanner');
      const stages = planStages(explained['queryPlanner']['winningPlan']);
      const names = stages.map((s) => s.stage);
      expect(names, JSON.stringify(stages)).to.not.include('SORT');
      expect(names, JSON.stringify(stages)).to.not.include('COLLSCAN');
      expect(stages.some((s) => /IXSCAN$/.test(s.stage) && s.indexName === INDEXES.ordersByCustomer), JSON.stringify(stages)).to.equal(true);
    });
  });
});

interface PlanStage {
  readonly stage: string;
  readonly indexName: unknown;
}

/** Every stage of a winning plan, whichever engine produced it (classic, or SBE's `queryPlan`). */
function planStages(node: unknown, found: PlanStage[] = []): PlanStage[] {
  if (Array.isArray(node)) {
    for (const child of node) planStages(child, found);
  } else if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    if (typeof record['stage'] === 'string') found.push({ stage: record['stage'], indexName: record['indexName'] });
    for (const value of Object.values(record)) planStages(value, found);
  }
  return found;
}
