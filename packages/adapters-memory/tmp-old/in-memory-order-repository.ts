/**
 * Orders and Idempotency-Key records in process memory. Every method runs to completion without
 * awaiting, which is what makes each step atomic here: exactly one concurrent caller gets `claimed`,
 * and a change filtered on a record's holder sees the record as it is.
 */
import type {
  ClaimResult,
  IdempotencyClaim,
  IdempotencyKeyRef,
  InsertResult,
  Order,
  OrderRepository,
  Page,
  PageRequest,
} from '@storefront/domain';
import { pageOffset, toPage } from '@storefront/domain';
import { CustomerOrderLog, toOrder, toRow } from './customer-order-log.js';
import { copyRecord, IdempotencyRecords } from './idempotency-records.js';
import { OrderLinePool } from './order-line-pool.js';

export class InMemoryOrderRepository implements OrderRepository {
  private readonly logs = new Map<string, CustomerOrderLog>();
  private readonly idempotency = new IdempotencyRecords();
  private readonly lines = new OrderLinePool();
  private rowsRead = 0;

  /** Stored rows read by listings so far: lets a test check that page N costs what page 1 does. */
  get rowsReadByListings(): number {
    return this.rowsRead;
  }

  /** Idempotency records currently held (expired ones included until swept). */
  get idempotencyRecordCount(): number {
    return this.idempotency.size;
  }

  async claimIdempotencyKey(claim: IdempotencyClaim, now: Date): Promise<ClaimResult> {
    const nowMs = now.getTime();
    const record = this.idempotency.find(claim, nowMs);
    if (record === undefined) {
      this.idempotency.open(claim, nowMs);
      return { kind: 'claimed' };
    }
    const order = record.state === 'completed' ? this.find(record.customerId, record.orderId) : null;
    return { kind: 'held', record: copyRecord(record), order };
  }

  async takeOverIdempotencyKey(ref: IdempotencyKeyRef, from: string, owner: string, lockExpiresAt: Date): Promise<boolean> {
    return this.idempotency.change(ref, from, { owner, lockExpiresAt });
  }

  async completeIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<boolean> {
    return this.idempotency.change(ref, owner, { state: 'completed' });
  }

  async abandonIdempotencyKey(ref: IdempotencyKeyRef, owner: string, now: Date): Promise<void> {
    this.idempotency.change(ref, owner, { lockExpiresAt: now });
  }

  async releaseIdempotencyKey(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    this.idempotency.release(ref, owner);
  }

  async insert(order: Order): Promise<InsertResult> {
    let log = this.logs.get(order.customerId);
    if (log === undefined) {
      log = new CustomerOrderLog();
      this.logs.set(order.customerId, log);
    }
    const row = toRow(order, this.lines);
    const stored = log.add(row);
    return { order: stored === row ? order : toOrder(stored, order.customerId), inserted: stored === row };
  }

  async findOrder(customerId: string, orderId: string): Promise<Order | null> {
    return this.find(customerId, orderId);
  }

  async listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>> {
    const log = this.logs.get(customerId);
    if (log === undefined) return toPage([], 0, page);
    const rows = log.slice(pageOffset(page), page.limit);
    this.rowsRead += rows.length;
    return toPage(
      rows.map((row) => toOrder(row, customerId)),
      log.size,
      page,
    );
  }

  private find(customerId: string, orderId: string): Order | null {
    const row = this.logs.get(customerId)?.find(orderId);
    return row === undefined ? null : toOrder(row, customerId);
  }
}
