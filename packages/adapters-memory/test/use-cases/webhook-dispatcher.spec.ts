/**
 * The WebhookDispatcher on the memory stores, a fake sender and a fake clock: version order per
 * order, the retry schedule (5 s ±10 % first, failed after the last), 410 and 24 h of failures
 * disabling the endpoint, a success clearing the failing mark, expired secrets no longer signing,
 * the concurrency bounds (a slow endpoint does not hold the others), lease expiry between two
 * instances, and a clean stop.
 */
import { afterEach, describe, it } from 'mocha';
import { expect } from 'chai';
import { WEBHOOK_FAILING_DISABLE_MS, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_SECRET_OVERLAP_MS, type WebhookResponse } from '@storefront/domain/adapter-kit';
import { aWebhookWorld, overriding, RECEIVER, type WebhookWorld } from './webhook-world.js';

/** The host's pause while busy (the app's is its pressure's sampling period, 100 ms). */
const PAUSE_MS = 100;

const status = (statusCode: number): WebhookResponse => ({ kind: 'response', statusCode });

/** A promise the test resolves by hand: a request held open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('WebhookDispatcher', () => {
  const worlds: WebhookWorld[] = [];
  const world = async (...args: Parameters<typeof aWebhookWorld>) => {
    const w = await aWebhookWorld(...args);
    worlds.push(w);
    return w;
  };
  afterEach(async () => {
    for (const w of worlds.splice(0)) await w.dispatcher.stop();
  });

  it('delivers an order’s events in version order, each once, and records them delivered', async () => {
    const w = await world();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    const orderId = await w.place();
    await w.move(orderId, 'accepted');
    await w.move(orderId, 'preparing');
    await w.delivered();
    expect(w.sender.sent.map((s) => [s.eventId, s.type])).to.deep.equal([
      [`evt_${orderId}_1`, 'order.placed'],
      [`evt_${orderId}_2`, 'order.status'],
      [`evt_${orderId}_3`, 'order.status'],
    ]);
    const page = await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 20, status: 'delivered' });
    expect(page.total).to.equal(3);
  });

  it('holds a later event while an earlier one of the same order waits for its retry', async () => {
    const w = await world();
    await w.admin.add({ url: RECEIVER });
    const orderId = await w.place();
    w.sender.answer = (_e, d) => (d.orderVersion === 1 && w.sender.sent.length === 1 ? status(503) : status(200));
    await w.move(orderId, 'accepted');
    await w.delivered();
    expect(w.sender.sent.map((s) => s.orderVersion)).to.deep.equal([1]);
    w.world.clock.advance(WEBHOOK_RETRY_DELAYS_MS[0]!);
    await w.delivered();
    expect(w.sender.sent.map((s) => s.orderVersion)).to.deep.equal([1, 1, 2]);
  });

  it('tries again after 5 s ±10 % (from the injected random), not before', async () => {
    for (const [random, delay] of [
      [0, 4500],
      [0.5, 5000],
      [0.999999, 5500],
    ] as const) {
      const w = await world({ webhooks: { dispatcher: { random: () => random } } });
      const { endpoint } = await w.admin.add({ url: RECEIVER });
      w.sender.answer = () => status(500);
      const start = w.world.clock.now().getTime();
      await w.admin.sendTest(endpoint.webhookId);
      await w.delivered();
      const [delivery] = (await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 1 })).items;
      expect(delivery).to.include({ status: 'pending', attempts: 1, lastStatusCode: 500 });
      expect(delivery!.nextAttemptAt!.getTime() - start).to.equal(delay);
      w.world.clock.advance(delay - 1);
      await w.delivered();
      expect(w.sender.sent).to.have.length(1);
      w.world.clock.advance(1);
      await w.delivered();
      expect(w.sender.sent).to.have.length(2);
    }
  });

  it('marks a delivery failed after the last retry of the schedule', async () => {
    const w = await world();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    w.sender.answer = () => ({ kind: 'error', error: 'connection refused' });
    await w.admin.sendTest(endpoint.webhookId);
    await w.delivered();
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) {
      w.world.clock.advance(delay + delay / 10);
      await w.delivered();
    }
    expect(w.sender.sent).to.have.length(WEBHOOK_RETRY_DELAYS_MS.length + 1);
    const [delivery] = (await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 1 })).items;
    expect(delivery).to.include({ status: 'failed', attempts: WEBHOOK_RETRY_DELAYS_MS.length + 1, lastError: 'connection refused' });
  });

  it('disables an endpoint that answers 410 at once (gone); the others go on', async () => {
    const w = await world();
    const gone = (await w.admin.add({ url: 'https://gone.example.com/' })).endpoint.webhookId;
    const fine = (await w.admin.add({ url: RECEIVER })).endpoint.webhookId;
    w.sender.answer = (endpoint) => (endpoint.webhookId === gone ? status(410) : status(200));
    await w.place();
    await w.delivered();
    expect(await w.admin.get(gone)).to.include({ enabled: false, disabledReason: 'gone' });
    expect((await w.admin.deliveries(gone, { page: 1, limit: 5 })).items[0]).to.include({ status: 'failed', lastStatusCode: 410 });
    await w.place();
    await w.delivered();
    expect(w.sender.to(gone)).to.have.length(1);
    expect(w.sender.to(fine)).to.have.length(2);
  });

  it('disables an endpoint whose every delivery failed for 24 h (failing), and a success in between starts the 24 h again', async () => {
    const w = await world();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    const id = endpoint.webhookId;
    let answer = status(500);
    w.sender.answer = () => answer;
    await w.admin.sendTest(id);
    await w.delivered();
    const failingSince = (await w.admin.get(id)).failingSince!;
    expect(failingSince.getTime()).to.equal(w.world.clock.now().getTime());
    w.world.clock.advance(WEBHOOK_FAILING_DISABLE_MS / 2);
    answer = status(200);
    await w.admin.sendTest(id);
    await w.delivered();
    expect((await w.admin.get(id)).failingSince).to.equal(undefined);
    answer = status(500);
    w.world.clock.advance(WEBHOOK_FAILING_DISABLE_MS / 2 + 1000);
    await w.admin.sendTest(id);
    await w.delivered();
    expect((await w.admin.get(id)).enabled).to.equal(true);
    w.world.clock.advance(WEBHOOK_FAILING_DISABLE_MS);
    await w.admin.sendTest(id);
    await w.delivered();
    expect(await w.admin.get(id)).to.include({ enabled: false, disabledReason: 'failing' });
  });

  it('signs with both secrets during the overlap after a rotation, and with the new one alone after it', async () => {
    const w = await world();
    const { endpoint, secret: old } = await w.admin.add({ url: RECEIVER });
    const { secret } = await w.admin.rotateSecret(endpoint.webhookId);
    await w.admin.sendTest(endpoint.webhookId);
    await w.delivered();
    w.world.clock.advance(WEBHOOK_SECRET_OVERLAP_MS);
    await w.admin.sendTest(endpoint.webhookId);
    await w.delivered();
    expect(w.sender.sent.map((s) => s.secrets)).to.deep.equal([[secret, old], [secret]]);
  });

  it('keeps at most perEndpoint requests open per endpoint and total in all, and a slow endpoint does not hold the others', async () => {
    const w = await world({ webhooks: { dispatcher: { perEndpoint: 2, total: 5 } } });
    const slow = (await w.admin.add({ url: 'https://slow.example.com/' })).endpoint.webhookId;
    const fast = [];
    for (let i = 0; i < 3; i++) fast.push((await w.admin.add({ url: RECEIVER })).endpoint.webhookId);
    const held = gate();
    w.sender.answer = async (endpoint) => {
      if (endpoint.webhookId === slow) await held.opened;
      else await new Promise((resolve) => setTimeout(resolve, 2));
      return status(200);
    };
    for (let i = 0; i < 6; i++) await w.place();
    await w.published();
    w.dispatcher.start();
    // The fast endpoints all get their six while the slow one holds its two requests open.
    try {
      for (let i = 0; i < 200 && fast.some((id) => w.sender.to(id).length < 6); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      for (const id of fast) expect(w.sender.to(id), id).to.have.length(6);
      expect(w.sender.to(slow)).to.have.length(2);
      expect(w.sender.peak.get(slow)).to.equal(2);
      for (const id of fast) expect(w.sender.peak.get(id)).to.be.at.most(2);
      expect(w.sender.peakInAll).to.be.at.most(5);
    } finally {
      held.open();
    }
    await w.dispatcher.settled();
    expect(w.sender.to(slow)).to.have.length(6);
  });

  it('gives way to requests while the host is busy: one batch per pause, then everything once it is not', async () => {
    let busy = true;
    const w = await world({ webhooks: { dispatcher: { perEndpoint: 4, total: 32, busy: { now: () => busy, pauseMs: PAUSE_MS } } } });
    await w.admin.add({ url: RECEIVER });
    for (let i = 0; i < 20; i++) await w.place();
    await w.published();
    w.dispatcher.start();
    await w.dispatcher.settled();
    // Busy: one lease of perEndpoint, then a pause; the notifies of the finished attempts lease nothing more.
    expect(w.sender.sent, 'sent while busy, before the pause ends').to.have.length(4);
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + 30));
    await w.dispatcher.settled();
    expect(w.sender.sent, 'one more batch after the pause').to.have.length(8);
    busy = false;
    w.dispatcher.notify();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS + 30));
    await w.dispatcher.settled();
    expect(w.sender.sent, 'the rest once the host is not busy').to.have.length(20);
  });

  it('lets another instance take over a delivery whose lease ran out; the late record of the first is ignored', async () => {
    const first = await world({ webhooks: { dispatcher: { leaseMs: 30_000 } } });
    const second = await world({ webhooks: { dispatcher: { leaseMs: 30_000 } } }, () => ({}), { adapters: first.world.adapters, clock: first.world.clock });
    const { endpoint } = await first.admin.add({ url: RECEIVER });
    const held = gate();
    first.sender.answer = async () => {
      await held.opened;
      return status(500);
    };
    await first.admin.sendTest(endpoint.webhookId);
    first.dispatcher.start();
    await first.dispatcher.pump();
    expect(first.sender.sent).to.have.length(1);
    await second.dispatcher.pump();
    expect(second.sender.sent, 'leased by the first').to.have.length(0);
    first.world.clock.advance(30_000);
    await second.delivered();
    expect(second.sender.sent.map((s) => s.eventId)).to.deep.equal(first.sender.sent.map((s) => s.eventId));
    held.open();
    await first.dispatcher.settled();
    const [delivery] = (await first.admin.deliveries(endpoint.webhookId, { page: 1, limit: 1 })).items;
    expect(delivery).to.include({ status: 'delivered', attempts: 1, lastStatusCode: 200 });
  });

  it('does not send a delivery that waited for its turn past its lease (another instance has it by then)', async () => {
    const options = { webhooks: { dispatcher: { perEndpoint: 2, leaseMs: 30_000 } } };
    const first = await world(options);
    const second = await world(options, () => ({}), { adapters: first.world.adapters, clock: first.world.clock });
    const { endpoint } = await first.admin.add({ url: RECEIVER });
    const held = gate();
    first.sender.answer = async () => {
      await held.opened;
      return status(200);
    };
    const a = await first.admin.sendTest(endpoint.webhookId);
    await first.dispatcher.pump();
    const b = await first.admin.sendTest(endpoint.webhookId);
    const c = await first.admin.sendTest(endpoint.webhookId);
    // One place left on the endpoint: b is sent, c is leased and waits for a's or b's place.
    await first.dispatcher.pump();
    first.world.clock.advance(30_000);
    await second.delivered();
    held.open();
    await first.dispatcher.settled();
    expect(first.sender.sent.map((s) => s.eventId)).to.deep.equal([a.eventId, b.eventId]);
    expect(second.sender.sent.map((s) => s.eventId).sort()).to.deep.equal([a.eventId, b.eventId, c.eventId].sort());
  });

  it('tells a failing store once per outage, not at every poll, and leases again once it works', async () => {
    let down = true;
    const errors: unknown[] = [];
    const w = await world({ webhooks: { dispatcher: { onError: (error) => errors.push(error) } } }, (adapters) => ({
      webhookDeliveryQueue: overriding(adapters.webhookDeliveryQueue, {
        lease: (request) => (down ? Promise.reject(new Error('store down')) : adapters.webhookDeliveryQueue.lease(request)),
      }),
    }));
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    await w.admin.sendTest(endpoint.webhookId);
    for (let i = 0; i < 3; i++) await w.dispatcher.pump();
    expect(errors).to.have.length(1);
    down = false;
    await w.delivered();
    expect(w.sender.sent).to.have.length(1);
    down = true;
    await w.dispatcher.pump();
    expect(errors).to.have.length(2);
  });

  it('never records an outcome while its own lease runs (a lease may put off what a record just released)', async () => {
    let leasing = false;
    let overlaps = 0;
    const w = await world({}, (adapters) => ({
      webhookDeliveryQueue: overriding(adapters.webhookDeliveryQueue, {
        lease: async (request) => {
          leasing = true;
          try {
            await new Promise((resolve) => setTimeout(resolve, 3));
            return await adapters.webhookDeliveryQueue.lease(request);
          } finally {
            leasing = false;
          }
        },
        record: (...args) => {
          if (leasing) overlaps += 1;
          return adapters.webhookDeliveryQueue.record(...args);
        },
      }),
    }));
    for (let i = 0; i < 3; i++) await w.admin.add({ url: RECEIVER });
    w.sender.answer = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return status(200);
    };
    for (let i = 0; i < 10; i++) await w.move(await w.place(), 'accepted');
    await w.delivered();
    expect(w.sender.sent).to.have.length(60);
    expect(overlaps).to.equal(0);
  });

  it('stops leasing on stop() and waits for the request in flight to be recorded', async () => {
    const w = await world();
    const { endpoint } = await w.admin.add({ url: RECEIVER });
    const held = gate();
    w.sender.answer = async () => {
      await held.opened;
      return status(200);
    };
    await w.admin.sendTest(endpoint.webhookId);
    w.dispatcher.start();
    await w.dispatcher.pump();
    let stopped = false;
    const stopping = w.dispatcher.stop().then(() => (stopped = true));
    await w.admin.sendTest(endpoint.webhookId);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).to.equal(false);
    held.open();
    await stopping;
    expect(w.sender.sent).to.have.length(1);
    expect((await w.admin.deliveries(endpoint.webhookId, { page: 1, limit: 5, status: 'delivered' })).total).to.equal(1);
  });
});
