/**
 * Orders in process memory. No method awaits, which makes each step atomic: of moves planned on one
 * version exactly one finds it stored. Key records and the outbox read rows synchronously (`find`,
 * `locate`), so their steps are atomic too. A move swaps the row in the customer's log and the
 * status queue and puts the order last in the outbox marks in the same step, so no change is stored
 * without being due for publishing; the payment index (intents, checks) is written in that step too.
 */
import type {
  Order,
  OrderRepository,
  OrderStatus,
  Page,
} from '@storefront/domain';
import type { InsertResult, OrderMove, PageRequest } from '@storefront/domain/adapter-kit';
import { orderIdTime, pageOffset, toPage } from '@storefront/domain/adapter-kit';
import { CustomerOrderLog } from './customer-order-log.js';
import { OrderLinePool } from './order-line-pool.js';
import { OutboxMarks } from './outbox-marks.js';
import { movedRow, toOrder, toRow, versionOf, withoutAddress, withPayment, type OrderRow } from './order-row.js';
import { PaymentIndex } from './payment-index.js';
import { withCheckAt } from './payment-row.js';
import { StatusQueues } from './status-queues.js';

export class InMemoryOrderRepository implements OrderRepository {
  private readonly logs = new Map<string, CustomerOrderLog>();
  private readonly lines = new OrderLinePool();
  private readonly queues = new StatusQueues();
  /** Written in the same step as each change; InMemoryOrderOutbox reads and raises them. */
  readonly outbox = new OutboxMarks();
  /** Intents and due checks, written in the same step as each change; InMemoryOrderPayments reads them. */
  readonly payments = new PaymentIndex();
  /**
   * Orders whose id does not carry their creation time (ids not stamped by the domain, as some
   * tests and imports make): they cannot be found by key, so they are indexed by id here.
   */
  private readonly unstamped = new Map<string, OrderRow>();
  private rowsRead = 0;

  /** Stored rows read by listings so far: lets a test check that page N costs what page 1 does. */
  get rowsReadByListings(): number {
    return this.rowsRead;
  }

  /** Rows the status queues compared or read so far: lets a test check that a deep kitchen page costs what page 1 does. */
  get statusQueueReads(): number {
    return this.queues.reads;
  }

  async insert(order: Order): Promise<InsertResult> {
    return this.insertNow(order);
  }

  /** `insert`, at once (InMemoryIdempotencyKeys writes a fresh key's order in its own step). */
  insertNow(order: Order): InsertResult {
    const existing = this.locate(order.orderId);
    if (existing !== undefined) return { order: toOrder(existing), inserted: false };
    let log = this.logs.get(order.customerId);
    if (log === undefined) {
      log = new CustomerOrderLog(order.customerId);
      this.logs.set(order.customerId, log);
    }
    const row = toRow(order, log.customerId, this.lines);
    this.payments.checkIntent(row.orderId, row.payment);
    log.add(row);
    this.queues.add(row);
    this.outbox.added(row.orderId);
    if (orderIdTime(row.orderId) !== row.createdAtMs) this.unstamped.set(row.orderId, row);
    if (row.payment !== undefined) this.payments.changed(row.orderId, undefined, row.payment);
    return { order, inserted: true };
  }

  async findOrder(customerId: string, orderId: string): Promise<Order | null> {
    return this.find(customerId, orderId);
  }

  async findById(orderId: string): Promise<Order | null> {
    const row = this.locate(orderId);
    return row === undefined ? null : toOrder(row);
  }

  async listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>> {
    const log = this.logs.get(customerId);
    if (log === undefined) return toPage([], 0, page);
    const rows = log.slice(pageOffset(page), page.limit);
    this.rowsRead += rows.length;
    return toPage(rows.map(toOrder), log.size, page);
  }

  async applyMove(move: OrderMove): Promise<Order | null> {
    const before = this.locate(move.orderId);
    if (before === undefined || versionOf(before) !== move.fromVersion) return null;
    const after = movedRow(before, move);
    this.payments.checkIntent(after.orderId, after.payment);
    this.replace(before, after);
    this.outbox.changed(after.orderId, move.fromVersion);
    this.payments.changed(after.orderId, before.payment, after.payment);
    return toOrder(after);
  }

  /** Moves the order's next check to `untilMs`, nothing else: no new version, nothing to publish (a claim's lease). */
  leaseCheck(orderId: string, untilMs: number): Order | null {
    const before = this.locate(orderId);
    if (before?.payment === undefined) return null;
    const after = withPayment(before, withCheckAt(before.payment, untilMs));
    this.replace(before, after);
    this.payments.leased(orderId, untilMs);
    return toOrder(after);
  }

  async eraseDeliveryAddresses(customerId: string): Promise<void> {
    const log = this.logs.get(customerId);
    if (log === undefined) return;
    for (const before of log.slice(0, log.size)) {
      const after = withoutAddress(before);
      if (after !== before) this.replace(before, after);
    }
  }

  async listByStatus(statuses: readonly OrderStatus[], page: PageRequest): Promise<Page<Order>> {
    const { rows, total } = this.queues.page(statuses, pageOffset(page), page.limit);
    this.rowsRead += rows.length;
    return toPage(rows.map(toOrder), total, page);
  }

  /** One of the customer's orders, read at once (the key records answer a claim with it in the same step). */
  find(customerId: string, orderId: string): Order | null {
    const row = this.locate(orderId);
    return row === undefined || row.customerId !== customerId ? null : toOrder(row);
  }

  /** Puts `after` where `before` is stored: the customer's log, the status queues, the unstamped index. */
  private replace(before: OrderRow, after: OrderRow): void {
    this.logs.get(before.customerId)?.replace(after);
    this.queues.move(before, after);
    if (this.unstamped.has(after.orderId)) this.unstamped.set(after.orderId, after);
  }

  /** The stored row of an order, by the time its id carries, or by id for an unstamped one. */
  locate(orderId: string): OrderRow | undefined {
    const unstamped = this.unstamped.get(orderId);
    if (unstamped !== undefined) return unstamped;
    const createdAtMs = orderIdTime(orderId);
    return createdAtMs === undefined ? undefined : this.queues.find({ orderId, createdAtMs });
  }
}
