import { pageOffset, toPage } from '@storefront/domain';
import { CustomerOrderLog, toOrder, toRow } from './customer-order-log.js';
import { copyRecord, IdempotencyRecords } from './idempotency-records.js';
import { OrderLinePool } from './order-line-pool.js';
export class InMemoryOrderRepository {
    logs = new Map();
    idempotency = new IdempotencyRecords();
    lines = new OrderLinePool();
    rowsRead = 0;
    /** Stored rows read by listings so far: lets a test check that page N costs what page 1 does. */
    get rowsReadByListings() {
        return this.rowsRead;
    }
    /** Idempotency records currently held (expired ones included until swept). */
    get idempotencyRecordCount() {
        return this.idempotency.size;
    }
    async claimIdempotencyKey(claim, now) {
        const nowMs = now.getTime();
        const record = this.idempotency.find(claim, nowMs);
        if (record === undefined) {
            this.idempotency.open(claim, nowMs);
            return { kind: 'claimed' };
        }
        const order = record.state === 'completed' ? this.find(record.customerId, record.orderId) : null;
        return { kind: 'held', record: copyRecord(record), order };
    }
    async takeOverIdempotencyKey(ref, from, owner, lockExpiresAt) {
        return this.idempotency.change(ref, from, { owner, lockExpiresAt });
    }
    async completeIdempotencyKey(ref, owner) {
        return this.idempotency.change(ref, owner, { state: 'completed' });
    }
    async abandonIdempotencyKey(ref, owner, now) {
        this.idempotency.change(ref, owner, { lockExpiresAt: now });
    }
    async releaseIdempotencyKey(ref, owner) {
        this.idempotency.release(ref, owner);
    }
    async insert(order) {
        let log = this.logs.get(order.customerId);
        if (log === undefined) {
            log = new CustomerOrderLog();
            this.logs.set(order.customerId, log);
        }
        const row = toRow(order, this.lines);
        const stored = log.add(row);
        return { order: stored === row ? order : toOrder(stored, order.customerId), inserted: stored === row };
    }
    async findOrder(customerId, orderId) {
        return this.find(customerId, orderId);
    }
    async listByCustomer(customerId, page) {
        const log = this.logs.get(customerId);
        if (log === undefined)
            return toPage([], 0, page);
        const rows = log.slice(pageOffset(page), page.limit);
        this.rowsRead += rows.length;
        return toPage(rows.map((row) => toOrder(row, customerId)), log.size, page);
    }
    find(customerId, orderId) {
        const row = this.logs.get(customerId)?.find(orderId);
        return row === undefined ? null : toOrder(row, customerId);
    }
}
