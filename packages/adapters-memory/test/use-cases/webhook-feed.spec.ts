/**
 * The outbox's feed into webhook deliveries: one delivery per order event for every enabled endpoint
 * subscribed to its type, the body fixed at enqueue, ids derived from order and version, enqueued
 * before the event is marked published (a failure keeps it in the outbox; a crash after enqueuing
 * enqueues again without a duplicate), and an endpoint added here seen at once.
 */
import { afterEach, describe, it } from 'mocha';
import { expect } from 'chai';
import { aWebhookWorld, overriding, RECEIVER, type WebhookWorld } from './webhook-world.js';

describe('the webhook feed from the outbox', () => {
  let w: WebhookWorld | undefined;
  afterEach(async () => {
    await w?.dispatcher.stop();
    w = undefined;
  });

  it('enqueues each order event for every enabled endpoint subscribed to its type, with evt_<order>_<version> ids', async () => {
    w = await aWebhookWorld();
    const all = (await w.admin.add({ url: RECEIVER })).endpoint.webhookId;
    const placedOnly = (await w.admin.add({ url: RECEIVER, events: ['order.placed'] })).endpoint.webhookId;
    const off = (await w.admin.add({ url: RECEIVER })).endpoint.webhookId;
    await w.admin.change(off, { enabled: false });
    const orderId = await w.place();
    await w.published();
    await w.move(orderId, 'accepted');
    await w.published();
    const ids = async (webhookId: string) => (await w!.admin.deliveries(webhookId, { page: 1, limit: 20 })).items.map((d) => d.eventId).sort();
    expect(await ids(all)).to.deep.equal([`evt_${orderId}_1`, `evt_${orderId}_2`]);
    expect(await ids(placedOnly)).to.deep.equal([`evt_${orderId}_1`]);
    expect(await ids(off)).to.deep.equal([]);
  });

  it('fixes the body at enqueue: {type, timestamp, data} with the payload function of the options', async () => {
    w = await aWebhookWorld({ webhooks: { payload: (event) => ({ shown: event.orderId, v: event.version }) } });
    await w.admin.add({ url: RECEIVER });
    const at = w.world.clock.now().toISOString();
    const orderId = await w.place();
    await w.delivered();
    expect(w.sender.sent.map((s) => s.body)).to.deep.equal([{ type: 'order.placed', timestamp: at, data: { shown: orderId, v: 1 } }]);
  });

  it('sees an endpoint added through this storefront at once (the endpoint cache is dropped)', async () => {
    w = await aWebhookWorld();
    await w.place();
    await w.published();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await w.place();
    await w.published();
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20 })).total).to.equal(1);
  });

  it('keeps an event in the outbox while the delivery store fails, and enqueues it once it works', async () => {
    let down = false;
    w = await aWebhookWorld({}, (adapters) => ({
      webhookDeliveryQueue: overriding(adapters.webhookDeliveryQueue, {
        enqueue: (event, ids) => (down ? Promise.reject(new Error('store down')) : adapters.webhookDeliveryQueue.enqueue(event, ids)),
      }),
    }));
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    down = true;
    const orderId = await w.place();
    await w.published();
    expect((await w.world.adapters.orderOutbox.listUnpublished(10)).map((o) => o.order.orderId)).to.deep.equal([orderId]);
    down = false;
    await w.published();
    expect(await w.world.adapters.orderOutbox.listUnpublished(10)).to.deep.equal([]);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20 })).items.map((d) => d.eventId)).to.deep.equal([`evt_${orderId}_1`]);
  });

  it("enqueues one order's events one after the other in version order (a later one stored first could be sent first)", async () => {
    let down = true;
    const calls: string[] = [];
    w = await aWebhookWorld({}, (adapters) => ({
      webhookDeliveryQueue: overriding(adapters.webhookDeliveryQueue, {
        enqueue: async (event, ids) => {
          if (down) throw new Error('store down');
          calls.push(`start ${event.orderVersion}`);
          // The first version's write is the slow one.
          await new Promise((resolve) => setTimeout(resolve, event.orderVersion === 1 ? 10 : 0));
          await adapters.webhookDeliveryQueue.enqueue(event, ids);
          calls.push(`end ${event.orderVersion}`);
        },
      }),
    }));
    await w.admin.add({ url: RECEIVER });
    const orderId = await w.place();
    await w.published();
    await w.move(orderId, 'accepted');
    await w.move(orderId, 'preparing');
    await w.published();
    down = false;
    await w.published();
    expect(calls).to.deep.equal(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('enqueues again after a crash between enqueuing and marking published, without a second delivery', async () => {
    let crash = false;
    w = await aWebhookWorld({}, (adapters) => ({
      orderOutbox: overriding(adapters.orderOutbox, {
        markPublished: (orderId, version) => (crash ? Promise.reject(new Error('crashed before the mark')) : adapters.orderOutbox.markPublished(orderId, version)),
        markAllPublished: (marks) => (crash ? Promise.reject(new Error('crashed before the mark')) : adapters.orderOutbox.markAllPublished!(marks)),
      }),
    }));
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    crash = true;
    const orderId = await w.place();
    await w.published();
    expect((await w.world.adapters.orderOutbox.listUnpublished(10)).map((o) => o.order.orderId)).to.deep.equal([orderId]);
    crash = false;
    await w.published();
    expect(await w.world.adapters.orderOutbox.listUnpublished(10)).to.deep.equal([]);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20 })).total).to.equal(1);
  });
});
