/**
 * Ports of outgoing webhooks. The endpoints and the deliveries are shared by every instance of the
 * service: the database does the coordination (a lease per delivery), so that with several
 * instances each delivery is attempted by one of them at a time, and a worker that stopped mid-attempt is
 * replaced when its lease runs out (at least once: the same `webhook-id` may be sent again).
 */
import type { Page, PageRequest } from '../shared/page.js';
import type {
  DeliveryOutcome,
  LeasedDelivery,
  WebhookDelivery,
  WebhookDeliveryStatus,
  WebhookEndpoint,
  WebhookEvent,
  WebhookEventType,
} from './model.js';

/** The changes PATCH and the dispatcher make to an endpoint (absent: unchanged). */
export interface WebhookEndpointChanges {
  readonly url?: string;
  readonly events?: readonly WebhookEventType[];
  readonly description?: string;
  readonly enabled?: boolean;
  /** `null` clears it. */
  readonly disabledReason?: string | null;
  readonly failingSince?: Date | null;
  readonly secrets?: WebhookEndpoint['secrets'];
  readonly updatedAt: Date;
}

export interface WebhookEndpointStore {
  create(endpoint: WebhookEndpoint): Promise<void>;
  get(webhookId: string): Promise<WebhookEndpoint | null>;
  /** Every endpoint, oldest first. */
  list(): Promise<WebhookEndpoint[]>;
  /** Applies `changes`; the endpoint after them, or null when there is none. */
  update(webhookId: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null>;
  /**
   * Sets `failingSince` to `at` only when it is unset (the first failure after a success), and
   * answers the endpoint as it then is; one conditional write, so instances racing agree.
   */
  markFailing(webhookId: string, at: Date): Promise<WebhookEndpoint | null>;
  /** Removes the endpoint; false when there was none. Its deliveries go with it (`WebhookDeliveryUpkeep.removeEndpoint`). */
  remove(webhookId: string): Promise<boolean>;
}

export interface DeliveryListRequest extends PageRequest {
  readonly status?: WebhookDeliveryStatus;
}

export interface LeaseRequest {
  readonly now: Date;
  /** Deliveries handed out at most. */
  readonly limit: number;
  /** How long the caller holds each (then another worker may take it over). */
  readonly leaseMs: number;
  /** Only deliveries of these endpoints (the enabled ones); the others wait, pending. */
  readonly webhookIds: readonly string[];
  /** Leave out these endpoints' deliveries (those at their concurrency bound in this worker). */
  readonly excludeWebhookIds?: readonly string[];
}

export interface WebhookDeliveryStats {
  readonly pending: number;
  /** Created-at of the oldest pending delivery, when there is one. */
  readonly oldestPendingAt?: Date;
}

/** The deliveries as work: the feed and the test event enqueue, the dispatcher leases and records, the metrics read the backlog. */
export interface WebhookDeliveryQueue {
  /**
   * Stores one pending delivery per (event, webhookId), due at `event.createdAt`. Idempotent: a
   * (webhookId, eventId) pair already stored is left as it is (the relay may enqueue an event
   * again after a crash). The store makes the delivery ids (`wdl_` + 20 base32 characters).
   */
  enqueue(event: WebhookEvent, webhookIds: readonly string[]): Promise<void>;
  /**
   * Atomically hands out up to `limit` pending deliveries that are due (`nextAttemptAt <= now`),
   * not leased (or whose lease ran out), of the given endpoints, oldest due first, each with a new
   * lease token valid for `leaseMs`. Ordering per (webhookId, orderId): a delivery is handed out
   * only when no pending delivery of the same endpoint and order has a lower `orderVersion` (a
   * later event waits while an earlier one is pending, leased or not). Deliveries without an
   * order are not ordered. Two workers leasing at once never get the same delivery.
   */
  lease(request: LeaseRequest): Promise<LeasedDelivery[]>;
  /**
   * Records an attempt's outcome (attempts + 1, last status/error, status and next due time,
   * lease cleared) only when `leaseToken` still holds the lease; false otherwise (the lease ran
   * out and another worker took it over: its record wins).
   */
  record(deliveryId: string, leaseToken: string, outcome: DeliveryOutcome): Promise<boolean>;
  /** How many deliveries are pending, and since when the oldest (the backlog metrics). */
  stats(): Promise<WebhookDeliveryStats>;
}

/** The deliveries as an admin sees them: one, an endpoint's pages, and a retry asked for. */
export interface WebhookDeliveryLog {
  /** One delivery of an endpoint; null when there is none (or it is another endpoint's). */
  get(webhookId: string, deliveryId: string): Promise<WebhookDelivery | null>;
  /** An endpoint's deliveries, newest first, optionally of one status. */
  list(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>>;
  /**
   * Makes a delivery pending and due at `now` (attempts kept); false when there is none. A
   * pending one is only made due now. A delivered one is sent again too (an admin's explicit ask).
   */
  retry(webhookId: string, deliveryId: string, now: Date): Promise<boolean>;
}

/** What keeps the deliveries bounded and clean: retention, removed endpoints, erased payloads. */
export interface WebhookDeliveryUpkeep {
  /**
   * Sets the body of every stored delivery of the event (every endpoint, any status) to `payload`:
   * an erased account's order is sent, retried and kept without its personal data. Idempotent.
   */
  rewritePayload(eventId: string, payload: string): Promise<void>;
  /** Removes every delivery of an endpoint (it was removed). */
  removeEndpoint(webhookId: string): Promise<void>;
  /** Removes up to `limit` delivered or failed deliveries whose `keepUntil` is at or before `now`; how many it removed. Never a pending one. */
  removeExpired(now: Date, limit: number): Promise<number>;
  /** The endpoint ids that have deliveries stored (the housekeeping finds those of removed endpoints). */
  endpointsWithDeliveries(): Promise<string[]>;
}

/** One signed request, ready to send. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What came of sending one request. */
export type WebhookResponse =
  | { readonly kind: 'response'; readonly statusCode: number }
  /**
   * No usable response: refused, reset, timed out, a redirect not followed (its status in
   * `statusCode`), or an address not allowed.
   */
  | { readonly kind: 'error'; readonly error: string; readonly statusCode?: number };

/**
 * The outgoing HTTP side: signs and sends (Standard Webhooks), with a time-out, no redirects, and
 * the address rules checked against the address it connects to. Never rejects.
 */
export interface WebhookSender {
  send(endpoint: WebhookEndpoint, delivery: WebhookDelivery, now: Date): Promise<WebhookResponse>;
}

/**
 * The address rules at registration: a URL it refuses gets the reason (e.g. "resolves to a
 * private address"), null when allowed. (The sender checks them again at every delivery.)
 */
export interface WebhookUrlPolicy {
  check(url: string): Promise<string | null>;
}
