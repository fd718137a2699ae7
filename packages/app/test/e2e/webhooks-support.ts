/**
 * Helpers of the webhook end-to-end specs: registering a real receiver as the demo admin, reading
 * an endpoint's deliveries, and checking what a receiver accepted (every event once, verified, in
 * version order per order).
 */
import { expect } from 'chai';
import type { ReceivedRequest, WebhookReceiver } from '@storefront/testing';
import { call, login } from './support.js';

/** The demo data's admin account (DECISIONS "Roles"). */
export const OWNER = { email: 'owner@example.com', password: 'owner-password' } as const;

export async function adminToken(base: string): Promise<string> {
  return (await login(base, OWNER.email, OWNER.password, { localAddress: '127.0.0.97' })).access_token;
}

/** Registers the receiver (its secret handed to it) and answers the endpoint's id. */
export async function register(base: string, admin: string, receiver: WebhookReceiver, body: Record<string, unknown> = {}): Promise<string> {
  const res = await call(base, '/api/admin/webhooks', { token: admin, json: { url: receiver.url(), ...body } });
  expect(res.status, res.text).to.equal(201);
  receiver.secrets = [res.body.secret as string, ...receiver.secrets];
  return res.body.webhook_id as string;
}

export interface DeliveryJson {
  readonly delivery_id: string;
  readonly event_id: string;
  readonly type: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly last_status_code: number | null;
  readonly last_error: string | null;
}

export async function deliveries(base: string, admin: string, webhookId: string, query = ''): Promise<DeliveryJson[]> {
  const res = await call(base, `/api/admin/webhooks/${webhookId}/deliveries?limit=100${query}`, { token: admin });
  expect(res.status, res.text).to.equal(200);
  return res.body.deliveries as DeliveryJson[];
}

/** Polls the deliveries list (over HTTP) until `predicate` holds; the dispatcher works on its own time. */
export async function untilDeliveries(base: string, admin: string, webhookId: string, predicate: (list: DeliveryJson[]) => boolean, what: string, timeoutMs = 10_000): Promise<DeliveryJson[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveries(base, admin, webhookId);
    if (predicate(list)) return list;
    if (Date.now() > deadline) throw new Error(`deliveries: ${what} not within ${timeoutMs} ms; now ${JSON.stringify(list)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface OrderData {
  readonly order_id: string;
  readonly version: number;
}

/** The first accepted request of each event, in arrival order: what the receiver processed. */
export function acceptedEvents(receiver: WebhookReceiver): ReceivedRequest[] {
  const seen = new Set<string>();
  return receiver.accepted.filter((r) => {
    const id = r.headers['webhook-id']!;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Every request verified with the reference library; each order's events accepted in version
 * order 1, 2, … with none missing; `versions` per order expected.
 */
export function expectInVersionOrder(receiver: WebhookReceiver, expected: ReadonlyMap<string, number>): void {
  expect(receiver.unverified, 'requests the reference library did not verify').to.deep.equal([]);
  const versions = new Map<string, number[]>();
  for (const request of acceptedEvents(receiver)) {
    if (request.json?.type === 'webhook.test') continue;
    const data = request.json?.data as OrderData;
    versions.set(data.order_id, [...(versions.get(data.order_id) ?? []), data.version]);
  }
  for (const [orderId, last] of expected) {
    expect(versions.get(orderId), `versions of ${orderId} as they arrived`).to.deep.equal(Array.from({ length: last }, (_, i) => i + 1));
  }
}
