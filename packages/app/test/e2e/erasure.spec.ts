/**
 * After an erasure's 204 nothing personal of the account can be read anywhere (DECISIONS
 * "Accounts", issue 32 items 1–2): not in the order's detail or the staff lists (whose renderings
 * were cached before), not in the staff stream's replay, not in a webhook delivery sent again.
 * Runs in memory and, with STOREFRONT_TEST_STORE=postgres, on PostgreSQL.
 */
import { WebhookReceiver } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { follow } from './events-support.js';
import { staffToken } from './kitchen-support.js';
import { call, getMenu, newCustomer, orderableWithoutOptions, useServer } from './support.js';
import { adminToken, deliveries, register } from './webhooks-support.js';

const ADDRESS = { line1: 'Erasure-Allee 32', line2: 'Hinterhaus 4', city: 'Berlin', postal_code: '10178', lat: 52.5219, lng: 13.4132, instructions: 'Ring at Nowak-Erased' };
/** What must not be found anywhere after the erasure. */
const PERSONAL = [ADDRESS.line1, ADDRESS.line2, ADDRESS.instructions, '"address"'];

function expectNothingPersonal(text: string, where: string, more: readonly string[]): void {
  for (const value of [...PERSONAL, ...more]) expect(text, where).not.to.contain(value);
}

describe('e2e: nothing personal of an erased account can be read afterwards', function () {
  this.timeout(30_000);
  const h = useServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  let receiver: WebhookReceiver;
  before(async () => {
    receiver = await WebhookReceiver.start();
  });
  after(async () => receiver.close());

  it('shows the order without its address in the detail, the lists, the stream replay and a webhook sent again', async () => {
    const admin = await adminToken(h.url);
    const staff = await staffToken(h.url);
    const webhookId = await register(h.url, admin, receiver, { events: ['order.placed'] });
    const dish = (await getMenu(h.url)).find(orderableWithoutOptions)!;
    const customer = await newCustomer(h, 'erased');
    const quantity = Math.min(99, Math.ceil(3000 / dish.price));
    const placed = await call(h.url, '/api/orders', {
      token: customer.token,
      json: { items: [{ product_id: dish.product_id, quantity }], fulfilment: { type: 'delivery', time: 'asap', address: ADDRESS } },
    });
    expect(placed.status, placed.text).to.equal(201);
    const orderId = placed.body.order_id as string;
    await receiver.waitFor((r) => r.accepted.some((x) => x.body.includes(orderId)), 10_000, 'the order.placed delivery');
    // Read before the erasure: the renderings are cached with the address.
    const path = `/api/orders/${orderId}`;
    expect((await call(h.url, path, { token: staff })).text).to.contain(ADDRESS.line1);
    expect((await call(h.url, '/api/staff/orders?limit=100', { token: staff })).text).to.contain(ADDRESS.line1);
    const me = await call(h.url, '/api/me', { token: customer.token });
    const more = [customer.email, me.body.name as string];

    const erased = await call(h.url, '/api/me/delete', { token: customer.token, json: { password: customer.password } });
    expect(erased.status, erased.text).to.equal(204);

    const detail = await call(h.url, path, { token: staff });
    expect(detail.status).to.equal(200);
    expect(detail.body.fulfilment).to.include({ type: 'delivery', zone: 'Centre' });
    expectNothingPersonal(detail.text, 'the staff detail', more);
    for (const list of ['/api/staff/orders?limit=100', '/api/staff/orders?status=placed,accepted&limit=100']) {
      const listed = await call(h.url, list, { token: staff });
      expect(listed.text).to.contain(orderId);
      expectNothingPersonal(listed.text, list, more);
    }

    const stream = await follow(h.url, '/api/staff/events', staff, { 'Last-Event-ID': '0' });
    const frames: string[] = [];
    try {
      // The replay reaches the order's `order.placed` (every event before it is read too).
      for (let frame = await stream.nextEvent(5_000); frame !== null; frame = await stream.nextEvent(5_000)) {
        frames.push(JSON.stringify(frame));
        if (frame.event === 'order.placed' && frame.data?.includes(orderId) === true) break;
      }
    } finally {
      await stream.cancel();
    }
    expect(frames.join('\n'), 'the replay').to.contain(orderId);
    expectNothingPersonal(frames.join('\n'), 'the staff stream replay', more);

    const [delivery] = (await deliveries(h.url, admin, webhookId)).filter((d) => d.event_id === `evt_${orderId}_1`);
    const received = receiver.requests.length;
    const retried = await call(h.url, `/api/admin/webhooks/${webhookId}/deliveries/${delivery!.delivery_id}/retry`, { token: admin, method: 'POST' });
    expect(retried.status, retried.text).to.equal(202);
    await receiver.waitFor((r) => r.accepted.length > received, 10_000, 'the delivery sent again');
    const again = receiver.accepted.slice(received).find((x) => x.headers['webhook-id'] === `evt_${orderId}_1`)!;
    expect(again.json?.type).to.equal('order.placed');
    expect((again.json?.data as { order_id: string }).order_id).to.equal(orderId);
    expectNothingPersonal(again.body, 'the webhook body sent again', more);
  });
});
