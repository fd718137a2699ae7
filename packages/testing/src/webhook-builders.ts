/** Small builders of valid webhook endpoints and events for the webhook store contracts. */
import type { WebhookEndpoint, WebhookEvent } from '@storefront/domain';
import { newId } from '@storefront/domain';
import { uniqueSuffix } from './builders.js';

/** A fixed instant the webhook contracts count from (stores get `now` passed in, never a clock). */
const WEBHOOK_T0_MS = Date.UTC(2025, 0, 15, 12, 0, 0);

/** A new Date `offsetMs` after the contracts' fixed start (a fresh object each call: a test may not share one by mistake). */
export function webhookTime(offsetMs: number): Date {
  return new Date(WEBHOOK_T0_MS + offsetMs);
}

/** `whsec_` + base64 of 32 random bytes, as the domain makes them. */
export function aWebhookSecret(): string {
  return `whsec_${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
}

export function aWebhookEndpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  return {
    webhookId: newId('whk'),
    url: `https://pos.example.com/hooks/${uniqueSuffix()}`,
    events: ['order.placed', 'order.status'],
    description: 'the POS',
    enabled: true,
    secrets: [{ secret: aWebhookSecret(), createdAt: webhookTime(0) }],
    createdAt: webhookTime(0),
    updatedAt: webhookTime(0),
    ...overrides,
  };
}

/** An order event (`order.status` of `orderId` at `orderVersion`), or a test event when `orderId` is undefined. */
export function aWebhookEvent(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  const eventId = overrides.eventId ?? `msg_${uniqueSuffix()}`;
  const createdAt = overrides.createdAt ?? webhookTime(0);
  const type = overrides.type ?? 'order.status';
  return {
    eventId,
    type,
    payload: JSON.stringify({ type, timestamp: createdAt.toISOString(), data: { event: eventId } }),
    createdAt,
    ...(type === 'webhook.test' ? {} : { orderId: newId('ord'), orderVersion: 1 }),
    ...overrides,
  };
}
