/**
 * Settles payments whose news never came (DECISIONS "Payments", missed webhooks): every `intervalMs`
 * it takes the orders due a check (an awaiting payment past its window or quiet for 2 minutes, a
 * refund the provider has not answered or settled), at most a batch, each under a lease so that one
 * instance at a time reads it, and reads the provider: the same transitions as the events. An
 * awaiting payment past its window cancels the order (`payment_expired`), then its intent; a void
 * or refund a rejection or cancellation owes and the provider never answered is asked again.
 */
import type { BackgroundTasks } from '../shared/background-tasks.js';
import { isDomainError } from '../shared/errors.js';
import type { Clock } from '../shared/security.js';
import { clearTimer, setTimer } from '../shared/timers.js';
import type { Order } from '../orders/order.js';
import type { OrderPayments } from './order-payments.js';
import { expireUnpaid, settleIntent, settleRefund, type PaymentDesk } from './payment-desk.js';
import { giveBack } from './payment-moves.js';
import type { PaymentSettler } from './payment-settler.js';

export interface PaymentSweeperOptions {
  /** How often due checks are looked for. Default 15,000 ms (DECISIONS: at least every 15 s). */
  readonly intervalMs?: number;
  /** How long a taken check keeps other instances off the order. Default 60,000 ms. */
  readonly leaseMs?: number;
  /** Orders taken per sweep. Default 50. */
  readonly batchSize?: number;
}

const TASK = 'settle payments without news';

export class PaymentSweeper {
  private readonly intervalMs: number;
  private readonly leaseMs: number;
  private readonly batchSize: number;
  private timer: unknown = null;
  private started = false;
  private stopped = false;
  private running: Promise<number> | null = null;

  constructor(
    private readonly payments: OrderPayments,
    private readonly desk: PaymentDesk,
    private readonly settler: PaymentSettler,
    private readonly clock: Clock,
    /** Where each sweep runs: a failure is reported there; a shutdown that settles it waits for the sweep. */
    private readonly background: BackgroundTasks,
    options: PaymentSweeperOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 15_000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.batchSize = options.batchSize ?? 50;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.tick();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimer(this.timer);
    this.timer = null;
  }

  /**
   * One sweep: takes the due checks and settles each; resolves with how many were taken. The
   * provider down ends the sweep (every other order would wait on it too): the orders' leases pass
   * and the next sweep takes them again. Any other failure concerns its order alone (a request the
   * provider refuses as sent, an order that kept changing): it is reported and the sweep goes on,
   * so one such order never holds back the others; its lease passes and it is read again.
   */
  sweep(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private tick(): void {
    this.background.run(TASK, async () => {
      await this.sweep();
    });
    if (this.stopped) return;
    this.timer = setTimer(() => {
      this.timer = null;
      if (!this.stopped) this.tick();
    }, this.intervalMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async run(): Promise<number> {
    const now = this.clock.now();
    const due = await this.payments.claimChecks(now, new Date(now.getTime() + this.leaseMs), this.batchSize);
    for (const order of due) {
      try {
        await this.check(order);
      } catch (error) {
        if (isDomainError(error) && error.code === 'payment_provider_unavailable') throw error;
        this.background.report(error, `${TASK}: order ${order.orderId}`);
      }
    }
    return due.length;
  }

  /** Reads the provider for one order and applies what it says. */
  async check(order: Order): Promise<Order> {
    if (order.payment === undefined) return order;
    if (order.status === 'awaiting_payment') return this.checkAwaiting(order);
    // What a rejection or cancellation owes (a void, a refund the provider never answered), then each refund's news.
    let current = await giveBack(this.desk, this.settler, order);
    for (const record of current.payment!.refunds) {
      if (record.status !== 'pending' || record.providerRefundId === null) continue;
      const refund = await this.desk.gateway.readRefund(record.providerRefundId);
      current = await this.settler.apply(current, (o, now) => settleRefund(o, refund, now));
    }
    return current;
  }

  private async checkAwaiting(order: Order): Promise<Order> {
    const payment = order.payment!;
    const outcome = await this.desk.gateway.read(payment.intentId);
    const now = this.clock.now();
    if (settleIntent(order, outcome, now) !== null || now.getTime() < payment.payBy.getTime()) return this.settler.settle(order, { intent: outcome });
    // The window has passed unpaid: the order is cancelled first (an authorization racing it can then
    // no longer place it), then its intent, so that it can no longer be paid.
    const expired = await this.settler.apply(order, (current, at) => (current.status === 'awaiting_payment' ? expireUnpaid(current, at) : null));
    return expired.status === 'cancelled' ? giveBack(this.desk, this.settler, expired) : expired;
  }
}
