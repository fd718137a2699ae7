import type { Order } from '../model/order.js';
import type { Page, PageRequest } from '../model/page.js';

/** An Idempotency-Key as scoped by the domain: per customer, with a fingerprint of the request. */
export interface IdempotencyClaim {
  readonly customerId: string;
  readonly key: string;
  /** Hash of the normalised request body; the same key with another body is a conflict. */
  readonly fingerprint: string;
  /** A claim left in flight longer than this (a crashed request) may be taken over. */
  readonly lockExpiresAt: Date;
  /** The record (and its replay) is kept at least until then. */
  readonly expiresAt: Date;
}

/** What claiming an idempotency key found: a fresh claim, a request in flight, or a completed order. */
export type ClaimResult =
  | { readonly kind: 'claimed' }
  | { readonly kind: 'in_progress'; readonly fingerprint: string }
  | { readonly kind: 'completed'; readonly fingerprint: string; readonly order: Order };

/** Port: where orders and their idempotency keys live. */
export interface OrderRepository {
  /**
   * Atomically claims an idempotency key for a customer. Exactly one concurrent caller gets
   * `claimed`; the others see `in_progress` until it completes, then `completed` with the order.
   */
  claimIdempotencyKey(claim: IdempotencyClaim, now: Date): Promise<ClaimResult>;
  /** Releases a claim whose order could not be placed, so that a retry may try again. */
  releaseIdempotencyKey(customerId: string, key: string): Promise<void>;
  /**
   * Stores a new order; with an idempotency key, also completes that key's claim so that retries
   * replay this order. Never stores the same order twice.
   */
  insert(order: Order, idempotencyKey?: string): Promise<void>;
  /** The customer's orders, oldest first (created_at, then order_id), one page. */
  listByCustomer(customerId: string, page: PageRequest): Promise<Page<Order>>;
}
