import type { AccountPorts } from './account-ports.js';
import type { BackgroundTasks } from '../shared/background-tasks.js';
import { DomainError } from '../shared/errors.js';
import { eventOfVersion } from '../orders/order-event.js';
import { withoutDeliveryAddress } from '../orders/order.js';
import { givenPassword } from './password.js';
import { Issues } from '../shared/validation.js';
import type { CustomerRepository } from './customer-repository.js';
import type { PendingErasures } from './pending-erasures.js';
import type { OrderEventLog } from '../orders/order-event-log.js';
import type { OrderRepository } from '../orders/order-repository.js';
import type { PasswordResetTokenStore } from './password-reset-tokens.js';
import type { AbortSignalLike } from '../shared/security.js';
import { setTimer } from '../shared/timers.js';
import type { WebhookDeliveryUpkeep } from '../webhooks/ports.js';
import { orderWebhookEvent, type WebhookPayload } from '../webhooks/webhook-events.js';
import type { Caller } from './authenticate.js';
import { countPasswordAttempt, type PasswordAttemptPolicies } from './password-attempts.js';

export interface EraseAccountInput {
  readonly caller: Caller;
  /** The account's password, asked again: an access token alone must not erase an account. */
  readonly password: unknown;
  /** Who is asking (an IP address over HTTP): the password is guessed under the login limits. */
  readonly client: string;
  readonly signal?: AbortSignalLike;
}

/**
 * The login limits, counted under the same keys as logins (password-attempts.ts): a stolen access
 * token cannot guess the password faster here, nor lock the owner out of logging in.
 */
export interface EraseAccountDependencies extends AccountPorts, PasswordAttemptPolicies {
  readonly resetTokens: PasswordResetTokenStore;
  /** The erasure's first step, the mark that a sweep finds if this process stops before the end. */
  readonly erasures: PendingErasures;
  /** The account's orders stay, without their delivery addresses. */
  readonly orders: OrderRepository;
  /** Its `order.placed` events stay for replay, without the addresses too. */
  readonly events: OrderEventLog;
  /** Stored webhook deliveries of its orders, rendered again without the addresses (absent: no webhooks). */
  readonly webhooks?: { readonly deliveries: Pick<WebhookDeliveryUpkeep, 'rewritePayload'>; readonly payload: WebhookPayload } | undefined;
  /** Where an erasure interrupted by a fault is finished. */
  readonly background: BackgroundTasks;
  /** Waits between the background's attempts (ms), the last one repeated. Default 1 s doubling to 5 min, 20 attempts. */
  readonly retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS_MS = Array.from({ length: 20 }, (_, i) => Math.min(1000 * 2 ** i, 300_000));
const ORDERS_PER_READ = 100;

/**
 * The caller erases their own account: its personal data (email, name, password hash) goes with
 * the account record, every session is revoked and every reset token dropped. Its orders stay for
 * the kitchen's books, without their delivery addresses (zone and fee stay), in the order store,
 * the event log and stored webhook deliveries; their customer id then resolves to no account
 * (shown as `deleted`), and the email may sign up again as a new customer. A wrong password is
 * `invalid_credentials`.
 *
 * The first step records the erasure in the account (PendingErasures' `mark`): from then on the account reads
 * as gone (no login, refresh or token), and an ErasureSweep finds it if this process stops before the
 * end. Every later step can be repeated, and the account record goes last, taking the mark with it:
 * until it is gone the erasure is not done, and a step that fails is also run again by a background
 * task (the request still fails: only a finished erasure answers 204). docs/decisions.md, "Issue 32,
 * items 1–3".
 */
export class EraseAccount {
  constructor(private readonly deps: EraseAccountDependencies) {}

  async execute(input: EraseAccountInput): Promise<void> {
    const issues = new Issues();
    const password = givenPassword(input.password, 'password', issues);
    issues.throwIfAny();
    const { customer } = input.caller;
    const { customers, erasures, hasher, limiter, clock } = this.deps;
    await countPasswordAttempt(limiter, this.deps, { email: customer.email, client: input.client }, 'Too many password attempts; retry later.');
    const options = { client: input.client, ...(input.signal === undefined ? {} : { signal: input.signal }) };
    if (!(await hasher.verify(customer.passwordHash, password, options))) {
      throw new DomainError('invalid_credentials', 'The password is wrong.');
    }
    // The commitment: once stored, the erasure is finished by this request, its retries or the sweep.
    // A mark that failed changed nothing (the customer may ask again), or was stored and is swept.
    await erasures.mark(customer.customerId, clock.now());
    try {
      await this.finish(customer.customerId);
    } catch (error) {
      this.finishLater(customer.customerId);
      throw error;
    }
  }

  /**
   * The steps after the mark, each repeatable; the record last, so that a fault before it leaves the
   * mark for the sweep. Running them twice at once (a request and a sweep, two instances) is harmless.
   */
  async finish(customerId: string): Promise<void> {
    const { customers, sessions, resetTokens, orders, events, clock } = this.deps;
    // Sessions first: no new order of the account can start while its addresses are erased.
    await sessions.revokeAllOf(customerId, clock.now());
    await resetTokens.deleteAllOf(customerId);
    await orders.eraseDeliveryAddresses(customerId);
    await events.eraseDeliveryAddresses(customerId);
    await this.rewriteWebhookBodies(customerId);
    await customers.delete(customerId);
  }

  /**
   * The bodies that carry a delivery order (`order.placed`, `order.refunded`), rendered again from
   * the order without its address.
   */
  private async rewriteWebhookBodies(customerId: string): Promise<void> {
    const webhooks = this.deps.webhooks;
    if (webhooks === undefined) return;
    for (let page = 1; ; page++) {
      const found = await this.deps.orders.listByCustomer(customerId, { page, limit: ORDERS_PER_READ });
      for (const order of found.items) {
        if (order.fulfilment.type !== 'delivery') continue;
        const erased = withoutDeliveryAddress(order);
        for (let version = 1; version <= erased.version; version++) {
          const data = eventOfVersion(erased, version);
          if (data.order === undefined || data.type === 'order.payment') continue;
          const event = orderWebhookEvent({ ...data, type: data.type }, webhooks.payload);
          await webhooks.deliveries.rewritePayload(event.eventId, event.payload);
        }
      }
      if (found.nextPage === null) return;
    }
  }

  /** Runs every step again until they all succeed (or the attempts run out: reported), off the request. */
  private finishLater(customerId: string): void {
    const delays = this.deps.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.deps.background.run('finish an interrupted account erasure', async () => {
      for (let attempt = 0; ; attempt++) {
        await new Promise<void>((resolve) => setTimer(resolve, delays[Math.min(attempt, delays.length - 1)] ?? 0));
        try {
          await this.finish(customerId);
          return;
        } catch (error) {
          if (attempt + 1 >= delays.length) throw error;
        }
      }
    });
  }
}

/** How an order's customer reads once the account is erased. */
export const ERASED_CUSTOMER_LABEL = 'deleted';
