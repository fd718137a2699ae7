/**
 * What one client, or many, can make an instance hold for live streams (issue 24): a reader that
 * stops reading is cut once the stream has left STREAM_LIMITS.maxBufferedBytes unsent, and resumes
 * with Last-Event-ID without missing an event; past `perInstance` open streams, 503.
 */
import net from 'node:net';
import type { Socket } from 'node:net';
import { ORDER_LIMITS, type Storefront } from '@storefront/domain';
import { SseReader } from '@storefront/testing';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { STREAM_LIMITS } from '../src/limits.js';
import { openStream, placeFor, serveEvents, signIn } from './event-server.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An order of 50 lines: its `order.placed` event is one of the largest a stream carries (~7 KB). */
async function placeLarge(storefront: Storefront, customerId: string, productIds: readonly string[]): Promise<string> {
  const items = Array.from({ length: ORDER_LIMITS.maxLines }, (_, i) => ({ productId: productIds[i % productIds.length]!, quantity: 1 + (i % 9) }));
  return (await storefront.placeOrder.execute({ customerId, items })).order.orderId;
}

/** The complete events (a blank line after them) of a raw SSE text: their ids and the order each placed. */
function placedEvents(text: string): { id: string; orderId: string }[] {
  const events: { id: string; orderId: string }[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const id = /^id: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (id !== undefined && data !== undefined && /^event: order\.placed$/m.test(block)) {
      events.push({ id, orderId: (JSON.parse(data) as { order_id: string }).order_id });
    }
  }
  return events;
}

describe('live streams: what a slow reader can make the process hold', function () {
  this.timeout(120_000);

  it('cuts a staff stream whose reader stopped reading once 1 MiB is unsent, holds no more than that for it, and the reader resumes with Last-Event-ID missing nothing', async () => {
    const server = await serveEvents();
    const sockets: Socket[] = [];
    server.server.on('connection', (socket: Socket) => sockets.push(socket));
    try {
      const kitchen = await signIn(server.storefront, 'kitchen');
      const alice = await signIn(server.storefront, 'alice');
      const productIds = (await server.storefront.listMenu.execute()).products
        .filter((p) => p.available && p.optionGroups.every((group) => group.min === 0))
        .map((p) => p.productId);

      // A raw client that reads the response head and the first frame, then stops reading.
      const reader = net.connect(Number(new URL(server.url).port), '127.0.0.1');
      const received: Buffer[] = [];
      reader.on('data', (chunk: Buffer) => received.push(chunk));
      reader.write(`GET /api/staff/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${kitchen.token}\r\n\r\n`);
      while (!Buffer.concat(received).toString('latin1').includes('retry: 3000')) await sleep(5);
      reader.pause();
      const socket = sockets.find((s) => s.remotePort === reader.localPort)!;
      expect(socket, 'the server side of the reader').not.to.equal(undefined);

      const placed: string[] = [];
      let mostHeld = 0;
      while (!socket.destroyed && placed.length < 4_000) {
        for (let i = 0; i < 20; i++) placed.push(await placeLarge(server.storefront, alice.caller.customer.customerId, productIds));
        await sleep(15); // the relay publishes; the stream writes
        mostHeld = Math.max(mostHeld, socket.writableLength);
      }
      const cutAfter = placed.length;
      console.log(`      cut after ${cutAfter} orders of 50 lines; the most the process held for the reader: ${mostHeld} bytes`);
      expect(socket.destroyed, 'the stream was cut').to.equal(true);
      expect(mostHeld, 'bytes held for the reader').to.be.at.most(STREAM_LIMITS.maxBufferedBytes + 16 * 1024);
      expect(server.app.openStreams, 'open streams').to.equal(0);

      // The reader reads again: what reached it before the cut, then the end.
      reader.resume();
      await new Promise((resolve) => reader.once('close', resolve));
      const before = placedEvents(Buffer.concat(received).toString('utf8').split('\r\n\r\n').slice(1).join('\r\n\r\n'));
      expect(before.length, 'events it read before the cut').to.be.greaterThan(0);
      expect(before.map((e) => e.orderId)).to.deep.equal(placed.slice(0, before.length));

      // More orders while it is away: its replay alone is then about 11 MB, more than the kernel's
      // socket buffers and the bound together (a replay the client asked for is not held against
      // it). Then it resumes after the last whole event it read.
      for (let i = 0; i < 1_500; i++) placed.push(await placeLarge(server.storefront, alice.caller.customer.customerId, productIds));
      const resumed = await openStream(server.url, '/api/staff/events', kitchen.token, { 'Last-Event-ID': before.at(-1)!.id });
      expect(resumed.res.status).to.equal(200);
      const rest: string[] = [];
      const events = new SseReader(resumed.res, { timeoutMs: 5_000 });
      while (before.length + rest.length < placed.length) {
        const frame = await events.next();
        if (frame === null) break;
        if (frame.event === 'order.placed') rest.push((JSON.parse(frame.data!) as { order_id: string }).order_id);
      }
      await events.cancel();
      console.log(`      read ${before.length} events before the cut and ${rest.length} after resuming`);
      expect([...before.map((e) => e.orderId), ...rest], 'every order once, in order').to.deep.equal(placed);
    } finally {
      await server.close();
    }
  });

  it('refuses a stream past the per-instance limit with 503 service_unavailable and Retry-After, and takes one again once a stream ends', async () => {
    const server = await serveEvents({ streams: { perInstance: 2 } });
    try {
      const [alice, kitchen] = await Promise.all([signIn(server.storefront, 'alice'), signIn(server.storefront, 'kitchen')]);
      const order = await placeFor(server.storefront, alice.caller.customer.customerId);
      // Two callers, each far below its own limit of 5.
      const first = await openStream(server.url, `/api/orders/${order.orderId}/events`, alice.token);
      const second = await openStream(server.url, '/api/staff/events', kitchen.token);
      expect([first.res.status, second.res.status]).to.deep.equal([200, 200]);
      const third = await openStream(server.url, '/api/staff/events', kitchen.token);
      expect(third.res.status).to.equal(503);
      expect(third.res.headers.get('retry-after')).to.equal(String(STREAM_LIMITS.retryAfterSeconds));
      expect(await third.res.json()).to.include({ error: 'service_unavailable' });
      await first.events.cancel();
      let again = 0;
      for (let i = 0; i < 100 && again !== 200; i++) {
        const next = await openStream(server.url, '/api/staff/events', kitchen.token);
        again = next.res.status;
        if (again === 200) await next.events.cancel();
        else await sleep(10);
      }
      expect(again).to.equal(200);
      await second.events.cancel();
    } finally {
      await server.close();
    }
  });
});
