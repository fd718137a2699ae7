/** Small builders of an endpoint and a delivery for the sender's tests. */
import { randomBytes } from 'node:crypto';
import type { WebhookDelivery, WebhookEndpoint } from '@storefront/domain';
import type { WebhookSecret } from '@storefront/domain/adapter-kit';

export function aSecret(overrides: Partial<WebhookSecret> = {}): WebhookSecret {
  return { secret: `whsec_${randomBytes(32).toString('base64')}`, createdAt: new Date(), ...overrides };
}

export function anEndpoint(url: string, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  const at = new Date();
  return { webhookId: 'whk_aaaaaaaaaaaaaaaaaaaa', url, events: ['order.placed', 'order.status'], description: '', enabled: true, secrets: [aSecret()], createdAt: at, updatedAt: at, ...overrides };
}

let sequence = 0;

export function aDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  sequence += 1;
  const at = new Date();
  const payload = JSON.stringify({ type: 'order.status', timestamp: at.toISOString(), data: { order_id: 'ord_1', status: 'accepted', version: 2 } });
  return {
    deliveryId: `wdl_${String(sequence).padStart(20, 'a')}`,
    webhookId: 'whk_aaaaaaaaaaaaaaaaaaaa',
    eventId: `evt_${sequence}_${randomBytes(4).toString('hex')}`,
    type: 'order.status',
    payload,
    createdAt: at,
    status: 'pending',
    attempts: 0,
    ...overrides,
  };
}
