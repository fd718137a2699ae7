/**
 * Placing an order, exactly once per Idempotency-Key. The whole protocol of a key is here, top to
 * bottom; the store supplies atomic steps on one record (claim, take over, complete, abandon,
 * release), each filtered on the request holding it. The first claim reserves the order id and
 * every later holder places that id, so a key never stores two orders; the invariant and its case
 * table are in docs/decisions.md, "Idempotent order placement".
 */
import { DomainError, isDomainError, validationFailed } from '../shared/errors.js';
import type { FulfilmentPlanner } from '../fulfilment/fulfilment-planner.js';
import { fulfilmentFingerprint, parseFulfilment, parseTip, type FulfilmentInput } from '../fulfilment/fulfilment-request.js';
import { OrderStamper, randomToken, sha256Hex } from '../shared/ids.js';
import type { Fulfilment, FulfilmentRequest } from '../fulfilment/fulfilment.js';
import type { Order, OrderRequestLine } from './order.js';
import { Issues } from '../shared/validation.js';
import { placedState } from './order-lifecycle.js';
import type { MenuRepository } from '../menu/menu-repository.js';
import type { Product } from '../menu/product.js';
import type { IdempotencyClaim, IdempotencyKeyRef, IdempotencyKeys, IdempotencyRecord } from './idempotency-keys.js';
import type { OrderRepository } from './order-repository.js';
import type { KeyedOrderWrites } from './keyed-order-writes.js';
import type { PaymentDesk } from '../payments/payment-desk.js';
import type { Clock } from '../shared/security.js';
import { LeftClaims } from './left-claims.js';
import { fingerprintOf, parseLines, priceOrder, type ParsedLine } from './order-pricing.js';
import type { StoreGate } from '../store/store-gate.js';
import { amountToPay, orderTaxes } from '../taxes/order-taxes.js';
import type { TaxRate } from '../taxes/tax-rate.js';
import { NO_TAX, productTaxRate, type TaxSettings } from '../taxes/tax-settings.js';

/** An order as a customer asks for it: product ids, quantities and options, never prices. */
export interface PlaceOrderInput {
  readonly customerId: string;
  /**
   * Validated here: 1–50 lines, a product id, a quantity that is an integer from 1 to 99, option
   * ids each at most once; then against the menu (products, then each line's options).
   */
  readonly items: readonly OrderRequestLine[];
  /** Pickup or delivery, now or at a chosen time; absent: pickup, as soon as possible. */
  readonly fulfilment?: FulfilmentInput | undefined;
  /** Minor units, 0 to 100,000; absent: 0. */
  readonly tip?: unknown;
  readonly idempotencyKey?: string | undefined;
}

/** The order placed (or replayed for a repeated Idempotency-Key). */
export interface PlaceOrderResult {
  readonly order: Order;
  /** True when an earlier request with the same Idempotency-Key placed this order. */
  readonly replayed: boolean;
}

/** Idempotency-record lifetimes. */
export interface PlaceOrderOptions {
  /** How long an idempotency record (and its replay) is kept. Default 24 h. */
  readonly idempotencyTtlSeconds?: number;
  /** After this, a claim left by a crashed request may be taken over. Default 60 s. */
  readonly idempotencyLockSeconds?: number;
  /** How orders are taxed. Default: no tax. */
  readonly taxes?: TaxSettings;
  /**
   * SHA-256 of a text as lower-case hex: the Idempotency-Key fingerprint. Default Web Crypto's
   * (asynchronous, portable); a host gives its synchronous hash (node:crypto's costs a fraction).
   */
  readonly sha256Hex?: (text: string) => string | Promise<string>;
  /**
   * Card payments (DECISIONS "Payments"): every order with something to pay is stored awaiting its
   * payment, with its intent opened at the provider. Default none: orders are placed at once.
   */
  readonly payments?: PaymentDesk | null;
}

/** The request as checked: lines, fulfilment and tip. */
interface OrderRequest {
  readonly lines: readonly ParsedLine[];
  readonly fulfilment: FulfilmentRequest;
  readonly tip: number;
}

/** The order a claim will place: reserved with the key's first claim. */
interface Reservation {
  readonly orderId: string;
  readonly createdAt: Date;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
/** Each attempt loses only to a request that changed the record meanwhile; a few always suffice. */
const MAX_CLAIM_ATTEMPTS = 5;

const inUse = (): DomainError =>
  new DomainError('idempotency_key_in_use', 'A request with this idempotency key is still being processed; retry later.');

/** Prices an order from the menu (never from the client) and stores it exactly once per key. */
export class PlaceOrder {
  private readonly stamper = new OrderStamper();
  private readonly ttlMs: number;
  private readonly lockMs: number;
  private readonly taxes: TaxSettings;
  private readonly left: LeftClaims;
  private readonly hash: (text: string) => string | Promise<string>;
  private readonly desk: PaymentDesk | null;

  constructor(
    private readonly menu: MenuRepository,
    private readonly orders: OrderRepository,
    private readonly keys: IdempotencyKeys,
    private readonly clock: Clock,
    /** Refuses orders for now while the store is closed or paused; a replay of a placed order still replays. */
    private readonly gate: StoreGate | null,
    /** Zones, fees and slots: where and when an order is handed over. */
    private readonly planner: FulfilmentPlanner,
    options: PlaceOrderOptions = {},
    /** Told after an order is stored, with the order as written (the event relay publishes it). */
    private readonly stored: (placed: Order) => void = () => undefined,
    /** A fresh key's claim, order and completion in one write, where the store offers it. */
    private readonly writes: KeyedOrderWrites | null = null,
  ) {
    this.ttlMs = (options.idempotencyTtlSeconds ?? 24 * 3600) * 1000;
    this.lockMs = (options.idempotencyLockSeconds ?? 60) * 1000;
    this.taxes = options.taxes ?? NO_TAX;
    this.left = new LeftClaims(keys, clock);
    this.hash = options.sha256Hex ?? sha256Hex;
    this.desk = options.payments ?? null;
  }

  async execute(input: PlaceOrderInput): Promise<PlaceOrderResult> {
    const key = input.idempotencyKey;
    if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
      throw validationFailed([{ path: 'idempotencyKey', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    const request = parseRequest(input);
    let reservation = this.stamper.next(this.clock.now());
    if (key === undefined) {
      const { order } = await this.orders.insert(await this.price(input.customerId, request, reservation));
      this.stored(order);
      await this.confirmPlace(order);
      return { order, replayed: false };
    }
    const ref: IdempotencyKeyRef = { customerId: input.customerId, key };
    // A host's synchronous hash is used as it is: awaiting a plain string still costs promises.
    const hashed = this.hash(JSON.stringify(fingerprintOfRequest(request)));
    const fingerprint = typeof hashed === 'string' ? hashed : await hashed;
    const owner = randomToken(20);
    const fresh = await this.placeFresh(ref, fingerprint, owner, reservation, request);
    // The key was held and the intent made for this reservation given up: the request goes on with
    // a reservation of its own, so that it can never be handed that cancelled intent again.
    if (fresh === 'held') reservation = this.stamper.next(this.clock.now());
    else if (fresh !== null) return fresh;

    for (let attempt = 0; attempt < MAX_CLAIM_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const claim = await this.keys
        .claim(this.claimOf(ref, fingerprint, owner, reservation, now), now)
        .catch((error: unknown) => {
          // Perhaps stored with its acknowledgement lost: then it is this ended request's claim.
          this.left.add(ref, owner, 'abandon');
          throw error;
        });
      this.left.storeAnswers();
      if (claim.kind === 'claimed') return this.placeHolding(ref, owner, reservation, request);

      const { record } = claim;
      if (record.fingerprint !== fingerprint) {
        throw new DomainError('idempotency_key_reused', 'This idempotency key was used with a different request body.');
      }
      if (record.state === 'completed') {
        if (claim.order === null) throw new Error(`idempotency key record completed without its order ${record.orderId}`);
        return { order: claim.order, replayed: true };
      }
      // A lock guards a request still running; one that this instance saw end guards nothing.
      const holderEnded = this.left.has(ref, record.owner);
      if (record.lockExpiresAt.getTime() > now.getTime() && !holderEnded) throw inUse();

      // The holder crashed, outlived its lock, or gave it up after a write of unknown outcome.
      const stored = await this.orders.findOrder(ref.customerId, record.orderId);
      if (stored !== null) {
        // Completing can lose to another request that took the record over meanwhile; the
        // order is the same either way.
        await this.keys.complete(ref, record.owner);
        this.left.settled(ref, record.owner);
        return { order: stored, replayed: true };
      }
      if (await this.keys.takeOver(ref, record.owner, owner, this.lockFrom(this.clock.now()))) {
        this.left.settled(ref, record.owner);
        return this.placeHolding(ref, owner, reservationOf(record), request);
      }
      // Another request changed the record since it was read: look again.
    }
    throw inUse();
  }

  /**
   * The common case in one write: priced first, then claim, order and completion together. Null
   * (nothing written) when the store cannot, when pricing refuses (the step-by-step protocol then
   * answers: a replay still replays while the store is closed); `held` when a record holds the key
   * (the reservation's intent, if any, is then given up). Only without slot capacity: pricing would
   * take a place for a key that may turn out held.
   */
  private async placeFresh(
    ref: IdempotencyKeyRef,
    fingerprint: string,
    owner: string,
    reservation: Reservation,
    request: OrderRequest,
  ): Promise<PlaceOrderResult | 'held' | null> {
    if (this.writes === null || this.planner.rules.capacity !== null) return null;
    let order: Order;
    try {
      order = await this.price(ref.customerId, request, reservation);
    } catch (error) {
      // Nothing is written yet: the provider's outage is the answer, without asking it twice.
      if (isDomainError(error) && error.code === 'payment_provider_unavailable') throw error;
      return null;
    }
    const now = this.clock.now();
    // A failure wrote all or nothing: a retry replays the order or places it.
    if ((await this.writes.placeFresh(this.claimOf(ref, fingerprint, owner, reservation, now), order, now)) === 'held') {
      // Its intent (if any) belongs to an order that will never be stored: nothing may be paid on it.
      await this.desk?.abandon(order).catch(() => undefined);
      return 'held';
    }
    this.stored(order);
    return { order, replayed: false };
  }

  /** Places the reserved order while `owner` holds the key's claim. */
  private async placeHolding(
    ref: IdempotencyKeyRef,
    owner: string,
    reservation: Reservation,
    request: OrderRequest,
  ): Promise<PlaceOrderResult> {
    let order: Order;
    try {
      order = await this.price(ref.customerId, request, reservation);
    } catch (error) {
      // Nothing was written under this claim: free the key (for a corrected body, say).
      await this.keys.release(ref, owner).catch(() => this.left.add(ref, owner, 'release'));
      throw error;
    }
    let stored: Order;
    let inserted: boolean;
    try {
      ({ order: stored, inserted } = await this.orders.insert(order));
      if (inserted) this.stored(stored);
    } catch (error) {
      // The order may or may not be stored: keep the claim and its reservation, end the lock so
      // that a retry takes the claim over at once and replays the order or places it.
      await this.abandon(ref, owner);
      throw error;
    }
    await this.confirmPlace(stored);
    // The order is stored. If the completion is lost, a retry finds the order through the
    // reservation once the lock ends; the client is told about the order it has.
    const completed = await this.keys.complete(ref, owner).catch(() => false);
    if (!completed) await this.abandon(ref, owner);
    return { order: stored, replayed: !inserted };
  }

  /** Ends the lock of `owner`'s claim; when the store cannot be told, the claim is left to `LeftClaims`. */
  private async abandon(ref: IdempotencyKeyRef, owner: string): Promise<void> {
    await this.keys.abandon(ref, owner, this.clock.now()).catch(() => this.left.add(ref, owner, 'abandon'));
  }

  /**
   * The order is stored: its slot place (pending until now) is held for good. If this fails, the
   * place's lease ends and the next look finds the order and confirms it then.
   */
  private async confirmPlace(order: Order): Promise<void> {
    await this.planner.confirm(order.fulfilment.promisedAt, order.orderId).catch(() => undefined);
  }

  /**
   * The order as it will be stored. Every refusal comes before the slot's place is taken (the last
   * step), so a refused order holds none; a place taken for an order that is then not stored (a
   * failed write, a crash) is pending and comes back when its lease ends: see docs/decisions.md,
   * "Slot places: pending until the order is stored".
   */
  private async price(customerId: string, request: OrderRequest, reservation: Reservation): Promise<Order> {
    // An order for now is refused while the store is closed or paused; one for later is not.
    if (request.fulfilment.time === 'asap' && this.gate !== null) {
      const reading = this.gate.assertTakingOrders();
      if (reading !== undefined) await reading;
    }
    const { lines, fulfilment, tip } = request;
    // Most orders have one line: its id needs no Set to be unique.
    const products = await this.menu.findByIds(lines.length === 1 ? [lines[0]!.productId] : [...new Set(lines.map((l) => l.productId))]);
    const taxes = this.taxes;
    const byId = new Map<string, Product>();
    for (const product of products) byId.set(product.productId, product);
    const { items, amount: subtotal, currency } = priceOrder(lines, byId, (product) => productTaxRate(product, taxes));
    const charges = this.planner.charges(fulfilment, subtotal);
    const taxable = items.map((line) => ({ rate: line.taxRate as TaxRate, amount: line.lineTotal }));
    const tax = orderTaxes([...taxable, { rate: taxes.deliveryFeeRate, amount: charges.deliveryFee }], taxes.pricesIncludeTax);
    const promisedAt = await this.planner.promise(fulfilment, reservation.orderId);
    const placed: Fulfilment = {
      type: fulfilment.type,
      time: fulfilment.time === 'asap' ? 'asap' : fulfilment.time.toISOString(),
      promisedAt,
      ...(fulfilment.address === undefined ? {} : { address: fulfilment.address }),
      ...(charges.zone === undefined ? {} : { zone: charges.zone }),
    };
    const order: Order = {
      orderId: reservation.orderId,
      customerId,
      items,
      subtotal,
      deliveryFee: charges.deliveryFee,
      tip,
      amount: amountToPay({ subtotal, deliveryFee: charges.deliveryFee, tip, taxTotal: tax.taxTotal, pricesIncludeTax: taxes.pricesIncludeTax }),
      pricesIncludeTax: taxes.pricesIncludeTax,
      taxes: tax.taxes,
      taxTotal: tax.taxTotal,
      currency,
      createdAt: reservation.createdAt,
      ...placedState(reservation.createdAt),
      fulfilment: placed,
    };
    // The provider is asked last, after every refusal: one order id (reserved with the key), one intent.
    return this.desk === null || order.amount < 1 ? order : this.desk.open(order);
  }

  /**
   * `owner`'s claim on the key for `reservation`, made at `now`. Field by field rather than
   * `{ ...ref, fingerprint, ... }`: see `withFields` (shared/objects.ts) for why.
   */
  private claimOf(ref: IdempotencyKeyRef, fingerprint: string, owner: string, reservation: Reservation, now: Date): IdempotencyClaim {
    return {
      customerId: ref.customerId,
      key: ref.key,
      fingerprint,
      owner,
      orderId: reservation.orderId,
      orderCreatedAt: reservation.createdAt,
      lockExpiresAt: this.lockFrom(now),
      expiresAt: new Date(now.getTime() + this.ttlMs),
    };
  }

  private lockFrom(now: Date): Date {
    return new Date(now.getTime() + this.lockMs);
  }
}

function reservationOf(record: IdempotencyRecord): Reservation {
  return { orderId: record.orderId, createdAt: record.orderCreatedAt };
}

/** The lines (checked first, as before), then fulfilment and tip, named together in one answer. */
function parseRequest(input: PlaceOrderInput): OrderRequest {
  const lines = parseLines(input.items);
  const issues = new Issues();
  const fulfilment = parseFulfilment(input.fulfilment, issues);
  const tip = parseTip(input.tip, issues);
  issues.throwIfAny();
  return { lines, fulfilment, tip };
}

/** The lines as before fulfilment existed, with fulfilment and tip added only when they differ from pickup as soon as possible without a tip. */
function fingerprintOfRequest(request: OrderRequest): unknown {
  const lines = request.lines.map(fingerprintOf);
  const extra = fulfilmentFingerprint(request.fulfilment, request.tip);
  return extra === null ? lines : { lines, fulfilment: extra };
}
