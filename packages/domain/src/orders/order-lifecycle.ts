/**
 * The order lifecycle as one table and pure functions over it: which status may follow which, who
 * may make the move, and whether it needs a reason. Stores apply a planned move as one
 * compare-and-set on the order's version (OrderRepository.applyMove), so two kitchen screens can
 * never both win.
 *
 *   placed → accepted → preparing → ready → completed
 *   placed → rejected (staff, reason)      placed → cancelled (the owner; staff with a reason)
 *   accepted | preparing → cancelled (staff, reason)
 *
 * With payments on, an order starts `awaiting_payment` (DECISIONS "Payments"):
 *   awaiting_payment → placed (the payment, once authorized)
 *   awaiting_payment → cancelled (the owner; the payment with a reason: payment_failed, payment_expired)
 */
import { DomainError } from '../shared/errors.js';
import { withFields } from '../shared/objects.js';
import { checkText } from '../shared/text.js';
import { characterCount, Issues } from '../shared/validation.js';
import type { Order, OrderStatus } from './order.js';
import type { OrderPayment, PaymentChangeNote } from '../payments/order-payment.js';

/** Who moves an order: its owner (the customer who placed it), the kitchen, or its payment's outcome. */
export type Mover = 'owner' | 'staff' | 'payment';

export interface LifecycleMove {
  readonly from: OrderStatus;
  readonly to: OrderStatus;
  readonly by: Mover;
  /** Whether the move must say why (1 to 200 characters). */
  readonly needsReason: boolean;
}

/** Every legal move; anything else is `invalid_transition`. */
export const ORDER_MOVES: readonly LifecycleMove[] = [
  { from: 'placed', to: 'accepted', by: 'staff', needsReason: false },
  { from: 'accepted', to: 'preparing', by: 'staff', needsReason: false },
  { from: 'preparing', to: 'ready', by: 'staff', needsReason: false },
  { from: 'ready', to: 'completed', by: 'staff', needsReason: false },
  { from: 'placed', to: 'rejected', by: 'staff', needsReason: true },
  { from: 'placed', to: 'cancelled', by: 'owner', needsReason: false },
  { from: 'placed', to: 'cancelled', by: 'staff', needsReason: true },
  { from: 'accepted', to: 'cancelled', by: 'staff', needsReason: true },
  { from: 'preparing', to: 'cancelled', by: 'staff', needsReason: true },
  { from: 'awaiting_payment', to: 'placed', by: 'payment', needsReason: false },
  { from: 'awaiting_payment', to: 'cancelled', by: 'owner', needsReason: false },
  { from: 'awaiting_payment', to: 'cancelled', by: 'payment', needsReason: true },
  // A placed order's authorization lapsed (Stripe cancels one not captured within 7 days): nothing can be captured.
  { from: 'placed', to: 'cancelled', by: 'payment', needsReason: true },
];

export const ORDER_STATUSES: readonly OrderStatus[] = [
  'placed',
  'accepted',
  'preparing',
  'ready',
  'completed',
  'rejected',
  'cancelled',
  'awaiting_payment',
];
/** What the kitchen still has to work on: the staff queue's default filter. */
export const OPEN_STATUSES: readonly OrderStatus[] = ['placed', 'accepted', 'preparing', 'ready'];
export const FINAL_STATUSES: readonly OrderStatus[] = ['completed', 'rejected', 'cancelled'];

/** The kitchen will not cook it: its slot place and its money go back. */
export function isUncooked(status: OrderStatus): boolean {
  return status === 'rejected' || status === 'cancelled';
}

export const REASON_LIMITS = { minLength: 1, maxLength: 200 } as const;

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'string' && (ORDER_STATUSES as readonly string[]).includes(value);
}

/** A move as a store applies it: from the version it was planned on to the next. */
export interface OrderMove {
  readonly orderId: string;
  /** The order's version the move was planned on: the store's compare-and-set. */
  readonly fromVersion: number;
  readonly status: OrderStatus;
  readonly at: Date;
  readonly reason?: string;
  /** The order's payment after the move, when it changes with it (a capture, a void, a refund). */
  readonly payment?: OrderPayment;
  /** Set for a change of the payment alone: `status` is the order's own, and the history entry carries it. */
  readonly paymentChange?: PaymentChangeNote;
}

/** What a mover asks for. */
export interface MoveRequest {
  readonly to: OrderStatus;
  readonly by: Mover;
  readonly reason?: string | undefined;
}

/**
 * The statuses an order passes through from `placed` to `status`, by the shortest way the table
 * allows (`ready` → accepted, preparing, ready; `placed` → none), e.g. to build an order in a
 * given status in tests, seeds or benchmarks. Derived from ORDER_MOVES, so it follows the table.
 */
export function pathFromPlaced(status: OrderStatus): readonly OrderStatus[] {
  const paths = new Map<OrderStatus, readonly OrderStatus[]>([['placed', []]]);
  const frontier: OrderStatus[] = ['placed'];
  for (let from = frontier.shift(); from !== undefined; from = frontier.shift()) {
    for (const move of ORDER_MOVES) {
      if (move.from !== from || paths.has(move.to)) continue;
      paths.set(move.to, [...paths.get(from)!, move.to]);
      frontier.push(move.to);
    }
  }
  const path = paths.get(status);
  if (path === undefined) throw new RangeError(`no way leads from placed to ${status}`);
  return path;
}

/** The legal move from `from` to `to` by `by`, or undefined. */
export function findMove(from: OrderStatus, to: OrderStatus, by: Mover): LifecycleMove | undefined {
  return ORDER_MOVES.find((move) => move.from === from && move.to === to && move.by === by);
}

/**
 * Plans `request` on `order` at `now`: the move to apply, or `invalid_transition` (the message names
 * the current status) when the table has no such move for this mover, or `validation_failed` when
 * the reason does not fit the move (moveReason).
 */
export function planMove(order: Order, request: MoveRequest, now: Date): OrderMove {
  const move = findMove(order.status, request.to, request.by);
  if (move === undefined) throw invalidTransition(order, request.to);
  const reason = moveReason(move, request.reason);
  const base = { orderId: order.orderId, fromVersion: order.version, status: request.to, at: now };
  return reason === undefined ? base : withFields(base, { reason });
}

/** A change of the order's payment alone (its status stays): one version, one history entry with `change`. */
export function planPaymentChange(order: Order, payment: OrderPayment, change: PaymentChangeNote, now: Date): OrderMove {
  return { orderId: order.orderId, fromVersion: order.version, status: order.status, at: now, payment, paymentChange: change };
}

/**
 * The one rule on a move's reason, whoever asks (the kitchen's route, the CLI, an embedder): a move
 * that needs one (a rejection, a staff cancellation) is refused without it; the kitchen's other
 * moves refuse one, so that a reason is never silently dropped; the owner's own cancellation takes
 * none and drops one given (the owner's cancel route takes no field at all). A reason given must
 * read as parseReason reads it (trimmed, 1 to 200 characters): the same check and message as the
 * use case's early one.
 */
function moveReason(move: LifecycleMove, given: string | undefined): string | undefined {
  if (given !== undefined && !move.needsReason && move.by === 'staff') {
    throw new DomainError('validation_failed', `A move to ${move.to} takes no reason.`, {
      details: [{ path: 'reason', message: 'is only for rejected and cancelled' }],
    });
  }
  const issues = new Issues();
  const reason = parseReason(given, issues);
  issues.throwIfAny();
  if (!move.needsReason) return undefined;
  if (reason === undefined) {
    throw new DomainError('validation_failed', `A move to ${move.to} needs a reason.`, {
      details: [{ path: 'reason', message: `is required: ${REASON_LIMITS.minLength} to ${REASON_LIMITS.maxLength} characters` }],
    });
  }
  return reason;
}

/** The order after `move` (for stores that keep whole orders, and for tests). */
export function applyOrderMove(order: Order, move: OrderMove): Order {
  // Every other field is carried as it is: a field added to Order later survives a move.
  const { reason: previous, ...kept } = order;
  const entry = move.paymentChange === undefined ? { status: move.status, at: move.at } : { status: move.status, at: move.at, paymentChange: move.paymentChange };
  const next: Order = withFields(kept, {
    status: move.status,
    version: order.version + 1,
    updatedAt: move.at,
    statusHistory: [...order.statusHistory, entry],
    ...(move.payment === undefined ? {} : { payment: move.payment }),
  });
  const reason = move.reason ?? previous;
  return reason === undefined ? next : withFields(next, { reason });
}

/** The fields of a newly placed order (version 1, history starting with `placed`, or `awaiting_payment`). */
export function placedState(
  createdAt: Date,
  status: 'placed' | 'awaiting_payment' = 'placed',
): Pick<Order, 'status' | 'version' | 'updatedAt' | 'statusHistory'> {
  return { status, version: 1, updatedAt: createdAt, statusHistory: [{ status, at: createdAt }] };
}

/** Whether the kitchen has seen the order by `version`: it was `placed` then (an unpaid order never reaches it). */
export function placedBy(order: Order, version: number): boolean {
  for (let index = 0; index < version && index < order.statusHistory.length; index++) {
    if (order.statusHistory[index]!.status === 'placed') return true;
  }
  return false;
}

export function invalidTransition(order: Order, to: OrderStatus): DomainError {
  return new DomainError('invalid_transition', `The order is ${order.status}; it cannot move to ${to}.`);
}

/** A reason as given by a client: one line, trimmed, 1 to 200 characters; undefined when absent. */
export function parseReason(value: unknown, issues: Issues): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value.trim() : '';
  const length = characterCount(text);
  if (length < REASON_LIMITS.minLength || length > REASON_LIMITS.maxLength) {
    issues.add('reason', `must be a string of ${REASON_LIMITS.minLength} to ${REASON_LIMITS.maxLength} characters`);
    return undefined;
  }
  return checkText(value as string, 'line', 'reason', issues) ? text : undefined;
}

/** A comma-separated status filter (`placed,ready`); unset or blank → the open statuses. */
export function parseStatusFilter(value: string | undefined, issues: Issues): readonly OrderStatus[] {
  if (value === undefined || value.trim() === '') return OPEN_STATUSES;
  const statuses: OrderStatus[] = [];
  for (const part of value.split(',')) {
    const status = part.trim();
    if (!isOrderStatus(status)) {
      issues.add('status', `"${status}" is not a status; use ${ORDER_STATUSES.join(', ')}`);
      continue;
    }
    if (!statuses.includes(status)) statuses.push(status);
  }
  return statuses;
}
