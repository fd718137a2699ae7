/**
 * What an admin does with webhooks (`/api/admin/webhooks`, CLI `webhooks …`): the interface the
 * HTTP adapter and the CLI call. Fixed ahead of its implementation (`ManageWebhooks` in
 * manage-webhooks.ts) so both sides can be built at once. Inputs are checked here too (an embedder
 * calls it without HTTP): a bad one throws `validation_failed` with field details; an unknown id
 * throws `not_found`; a URL the address rules refuse throws `validation_failed` on `url`.
 */
import type { Page } from '../shared/page.js';
import type { DeliveryListRequest } from './ports.js';
import type { WebhookDelivery, WebhookEndpoint, WebhookEventType } from './model.js';

export interface AddWebhookInput {
  readonly url: string;
  /** Default: every type of WEBHOOK_EVENT_TYPES. */
  readonly events?: readonly WebhookEventType[];
  readonly description?: string;
}

export interface ChangeWebhookInput {
  readonly url?: string;
  readonly events?: readonly WebhookEventType[];
  readonly description?: string;
  /** true re-enables it (and clears `disabledReason`): what is pending is sent. */
  readonly enabled?: boolean;
}

/** An endpoint with the secret shown once (on creation and rotation). */
export interface WebhookWithSecret {
  readonly endpoint: WebhookEndpoint;
  readonly secret: string;
}

export interface WebhookAdministration {
  add(input: AddWebhookInput): Promise<WebhookWithSecret>;
  list(): Promise<WebhookEndpoint[]>;
  get(webhookId: string): Promise<WebhookEndpoint>;
  change(webhookId: string, input: ChangeWebhookInput): Promise<WebhookEndpoint>;
  /** Removes the endpoint and its deliveries. */
  remove(webhookId: string): Promise<void>;
  /** A new secret; the previous one keeps signing for WEBHOOK_SECRET_OVERLAP_MS. */
  rotateSecret(webhookId: string): Promise<{ readonly secret: string }>;
  /** Enqueues a `webhook.test` event to this endpoint only; its delivery id. */
  sendTest(webhookId: string): Promise<{ readonly deliveryId?: string; readonly eventId: string }>;
  deliveries(webhookId: string, request: DeliveryListRequest): Promise<Page<WebhookDelivery>>;
  /** Makes the delivery due now (a failed one pending again). */
  retryDelivery(webhookId: string, deliveryId: string): Promise<void>;
}
