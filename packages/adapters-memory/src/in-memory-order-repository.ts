/**
 * Orders and Idempotency-Key records in process memory. Every method runs to completion without
 * awaiting, which is what makes a claim atomic here: exactly one concurrent caller gets `claimed`.
 */
import type { ClaimResult, IdempotencyClaim, Order, OrderRepository, Page, PageRequest } from '@storefront/domain';
import { pageOffset, toPage } from '@storefront/domain';
import { CustomerOrderLog, toOrder, toRow } from './customer-order-log.js';
import { IdempotencyRecords } from './idempotency-records.js';
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
    const record = this.idempotency.find(claim.customerId, claim.key, nowMs);
    if (record !== undefined) {
      if (record.order !== null) {
        return { kind: 'completed', fingerprint: record.fingerprint, order: toOrder(record.order, claim.customerId) };
      }
      if (record.lockExpiresAtMs > nowMs) return { kind: 'in_progress', fingerprint: record.fingerprint };
      // The request holding the claim is presumed dead: take the claim over.
    }
    this.idempotency.open(claim, nowMs);
    return { kind: 'claimed' };
  }

  async releaseIdempotencyKey(customerId: string, key: string): Promise<void> {
    this.idempotency.release(customerId, key);
  }

  async insert(order: Order, idempotencyKey?: string): Promise<void> {
    let log = this.logs.get(order.customerId);
    if (log === undefined) {
      log = new CustomerOrderLog();
      this.logs.set(order.customerId, log);
    }
    const stored = log.add(toRow(order, this.lines));
    if (idempotencyKey !== undefined) this.idempotency.complete(order.customerId, idempotencyKey, stored);
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
}
