/** Webhook endpoints and deliveries as stored in MongoDB (`_id` = the domain's id; optional fields absent, never null). */
import type { WebhookDelivery, WebhookEndpoint } from '@storefront/domain';
import type { LeasedDelivery, WebhookDeliveryStatus, WebhookDeliveryType, WebhookEventType, WebhookSecret } from '@storefront/domain/adapter-kit';

export interface WebhookEndpointDocument {
  _id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  disabledReason?: string;
  secrets: WebhookSecret[];
  failingSince?: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDeliveryDocument {
  _id: string;
  webhookId: string;
  eventId: string;
  type: WebhookDeliveryType;
  payload: string;
  orderId?: string;
  orderVersion?: number;
  createdAt: Date;
  status: WebhookDeliveryStatus;
  attempts: number;
  lastStatusCode?: number;
  lastError?: string;
  /** Set while pending only. */
  nextAttemptAt?: Date;
  deliveredAt?: Date;
  leaseToken?: string;
  leaseUntil?: Date;
  /** Pending only, internal: when the lease's walk looks at it (its due time, or later while held back by an earlier version). */
  readyAt?: Date;
  /** Delivered or failed: the TTL index removes it after this. */
  expiresAt?: Date;
}

/** Secrets with their own Date objects (stored and read the same way). */
export function copySecrets(secrets: readonly WebhookSecret[]): WebhookSecret[] {
  return secrets.map(({ secret, createdAt, expiresAt }) => ({
    secret,
    createdAt: new Date(createdAt),
    ...(expiresAt === undefined ? {} : { expiresAt: new Date(expiresAt) }),
  }));
}

export function toEndpointDocument(endpoint: WebhookEndpoint): WebhookEndpointDocument {
  return {
    _id: endpoint.webhookId,
    url: endpoint.url,
    events: [...endpoint.events],
    description: endpoint.description,
    enabled: endpoint.enabled,
    ...(endpoint.disabledReason === undefined ? {} : { disabledReason: endpoint.disabledReason }),
    secrets: copySecrets(endpoint.secrets),
    ...(endpoint.failingSince === undefined ? {} : { failingSince: new Date(endpoint.failingSince) }),
    createdAt: new Date(endpoint.createdAt),
    updatedAt: new Date(endpoint.updatedAt),
  };
}

export function toEndpoint(document: WebhookEndpointDocument): WebhookEndpoint {
  return {
    webhookId: document._id,
    url: document.url,
    events: document.events,
    description: document.description,
    enabled: document.enabled,
    ...(document.disabledReason == null ? {} : { disabledReason: document.disabledReason }),
    secrets: copySecrets(document.secrets),
    ...(document.failingSince == null ? {} : { failingSince: document.failingSince }),
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

export function toDelivery(document: WebhookDeliveryDocument): WebhookDelivery {
  return {
    eventId: document.eventId,
    type: document.type,
    payload: document.payload,
    ...(document.orderId == null ? {} : { orderId: document.orderId }),
    ...(document.orderVersion == null ? {} : { orderVersion: document.orderVersion }),
    createdAt: document.createdAt,
    deliveryId: document._id,
    webhookId: document.webhookId,
    status: document.status,
    attempts: document.attempts,
    ...(document.lastStatusCode == null ? {} : { lastStatusCode: document.lastStatusCode }),
    ...(document.lastError == null ? {} : { lastError: document.lastError }),
    ...(document.nextAttemptAt == null ? {} : { nextAttemptAt: document.nextAttemptAt }),
    ...(document.deliveredAt == null ? {} : { deliveredAt: document.deliveredAt }),
  };
}

export function toLeased(document: WebhookDeliveryDocument): LeasedDelivery {
  return { ...toDelivery(document), leaseToken: document.leaseToken!, leaseUntil: document.leaseUntil! };
}
