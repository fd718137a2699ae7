/**
 * Orders in PostgreSQL: one row per order (`order_id` the primary key); key claims live in
 * PostgresIdempotencyKeys, and every holder of a key places the order id reserved by its first
 * claim, so the primary key makes a second order impossible. A kitchen move is one conditional
 * UPDATE on its planned version (storefront_move_order): the second of two moves waits for the row
 * lock, re-checks and matches nothing. The table is its own outbox: `published_version` below
 * `version` marks the due events, written by the same statement as the change.
 */
import type {
  Order,
  OrderRepository,
  OrderStatus,
  Page,
} from '@storefront/domain';
import type { InsertResult, OrderMove, PageRequest } from '@storefront/domain/adapter-kit';
import { toPage } from '@storefront/domain/adapter-kit';
import type pg from 'pg';
import { copyDate } from './account-mappers.js';
import { paymentParameters } from './payment-mapper.js';
import { historyEntry, INSERT_ORDER, ORDER_COLUMNS, orderParameters, toOrder, type OrderRow } from './order-mapper.js';
import {
  customerOrdersQuery,
  customerOrdersTotalQuery,
  ordersByStatusQuery,
  ordersByStatusTotalQuery,
  type Query,
} from './order-queries.js';
import { numberCustomerList, numberKitchenLists } from './list-numbering.js';
import { isUniqueViolation, databaseOperation } from './database-errors.js';
import { retryOnConflict } from './retry.js';

export class PostgresOrderRepository implements OrderRepository {
  constructor(private readonly pool: pg.Pool) {}

  insert(order: Order): Promise<InsertResult> {
    return databaseOperation(async () => {
      try {
        // A plain INSERT (no list positions: readers give them, list-numbering.ts); a second
        // insert of one order id is refused by the primary key and read back below.
        await retryOnConflict(() => this.pool.query(INSERT_ORDER, orderParameters(order)));
        return { order, inserted: true };
      } catch (error) {
        if (!isUniqueViolation(error, 'orders_pkey')) throw error;
      }
      const stored = await this.findById(order.orderId);
      if (stored === null) throw new Error(`order ${order.orderId} was refused as a duplicate but cannot be read`);
      return { order: stored, inserted: false };
    });
  }

  findOrder(customerId: string, orderId: string): Promise<Order | null> {
    return this.one({ text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_id = $1 AND customer_id = $2`, values: [orderId, customerId] });
  }

  findById(orderId: string): Promise<Order | null> {
    return this.one({ text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE order_id = $1`, values: [orderId] });
  }

  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>> {
    return this.page(() => numberCustomerList(this.pool, customerId), customerOrdersQuery(customerId, page), customerOrdersTotalQuery(customerId), page);
  }

  listByStatus(statuses: readonly OrderStatus[], page: PageRequest): Promise<Page<Order>> {
    return this.page(() => numberKitchenLists(this.pool), ordersByStatusQuery(statuses, page), ordersByStatusTotalQuery(statuses), page);
  }

  applyMove(move: OrderMove): Promise<Order | null> {
    return this.one({
      text: `SELECT ${ORDER_COLUMNS} FROM storefront_move_order($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      values: [
        move.orderId,
        move.fromVersion,
        move.status,
        copyDate(move.at),
        move.reason ?? null,
        JSON.stringify(historyEntry(move)),
        ...paymentParameters(move.payment),
      ],
    });
  }

  eraseDeliveryAddresses(customerId: string): Promise<void> {
    return databaseOperation(async () => {
      // The partial index orders_with_address finds the few orders that still have one.
      await this.pool.query("UPDATE orders SET fulfilment = fulfilment - 'address' WHERE customer_id = $1 AND fulfilment ? 'address'", [customerId]);
    });
  }

  private one(query: Query): Promise<Order | null> {
    return databaseOperation(async () => {
      const result = await retryOnConflict(() => this.pool.query<OrderRow>(query.text, query.values));
      const row = result.rows[0];
      return row === undefined ? null : toOrder(row);
    });
  }

  /** A page of a list, once the orders waiting for a position in it are numbered (list-numbering.ts). */
  private page(numberWaiting: () => Promise<void>, rows: Query, total: Query, page: PageRequest): Promise<Page<Order>> {
    return databaseOperation(async () => {
      await numberWaiting();
      const [found, counted] = await Promise.all([
        this.pool.query<OrderRow>(rows.text, rows.values),
        this.pool.query<{ size: string }>(total.text, total.values),
      ]);
      return toPage(found.rows.map(toOrder), Number(counted.rows[0]?.size ?? 0), page);
    });
  }
}
