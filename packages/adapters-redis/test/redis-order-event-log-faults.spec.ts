/**
 * RedisOrderEventLog when Redis fails: against a private redis-server without persistence that the
 * tests kill and start again (a restart loses everything), and a TCP proxy that cuts one instance off.
 */
import { createRedisClient, RedisOrderEventLog } from '../src/index.js';
import {
  EventRecorder,
  FakeTimers,
  eventually,
  eventsOfAReadyOrder,
  keyOf,
  placedEvents,
  privateRedis,
  readAllEvents,
  rejectionOf,
  skipWithoutRedisServer,
  sleep,
  type PrivateRedis,
} from '@storefront/testing';
import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { afterEach, before, beforeEach, describe, it } from 'mocha';
import { tcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Retries `attempt` until it works: a client reconnects within its back-off (up to 2 s) of Redis coming back. */
async function untilItWorks<T>(attempt: () => Promise<T>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(50);
    }
  }
}

describe('RedisOrderEventLog when Redis fails', function () {
  this.timeout(30_000);
  let server: PrivateRedis;
  let clients: Redis[] = [];
  let logs: RedisOrderEventLog[] = [];
  let proxies: TcpProxy[] = [];
  const keyPrefix = 'storefront-test:events:';

  before(function () {
    skipWithoutRedisServer(this, 'RedisOrderEventLog fault tests');
  });
  beforeEach(async () => {
    server = await privateRedis();
    await server.start();
  });
  afterEach(async () => {
    await Promise.all(logs.map((log) => log.close()));
    for (const client of clients) client.disconnect();
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await server.kill();
    [clients, logs, proxies] = [[], [], []];
  });

  /** A fail-fast client as production makes it, connected. */
  async function aClient(url = server.url): Promise<Redis> {
    const client = createRedisClient(url, { commandTimeoutMs: 1000 });
    client.on('error', () => undefined);
    clients.push(client);
    if (client.status !== 'ready') await new Promise((resolve) => client.once('ready', resolve));
    return client;
  }

  function aLog(client: Redis, hooks: { errors?: unknown[]; restored?: unknown[]; timers?: FakeTimers } = {}): RedisOrderEventLog {
    const log = new RedisOrderEventLog({
      client,
      keyPrefix,
      blockMs: 500,
      timers: hooks.timers,
      onReaderError: (error) => hooks.errors?.push(error),
      onReaderRestored: () => hooks.restored?.push(true),
    });
    logs.push(log);
    return log;
  }

  it('rejects an append at once while Redis is down, and the same append succeeds, once, when it is back', async () => {
    const log = aLog(await aClient());
    await log.append(placedEvents(2));
    await server.kill();
    const batch = eventsOfAReadyOrder();
    const started = Date.now();
    await rejectionOf(log.append(batch));
    // At once: well before the command time-out (1 s), with room for a busy machine.
    expect(Date.now() - started).to.be.below(900);
    await server.start();
    await untilItWorks(() => log.append(batch));
    await log.append(batch);
    // The restart lost ids 1 and 2; the floor keeps them from being given again.
    const events = await readAllEvents(log, '2');
    expect(events.map((e) => e.id)).to.deep.equal(['3', '4', '5', '6']);
    expect(events.map(keyOf)).to.deep.equal(batch.map(keyOf));
    expect(await log.readAfter('0', 10)).to.deep.equal({ kind: 'reset' });
  });

  it('keeps a subscriber going across a restart: what comes after arrives in order, none twice, ids above all it saw', async () => {
    const errors: unknown[] = [];
    const restored: unknown[] = [];
    const reader = aLog(await aClient(), { errors, restored });
    const recorder = new EventRecorder();
    reader.subscribe(recorder);
    await reader.position();
    const other = aLog(await aClient());
    await other.append(placedEvents(3));
    await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2', '3']));

    await server.kill();
    await sleep(1500);
    await server.start();
    await eventually(() => expect(restored).to.have.length(1), 8000);
    // Redis came back below what the reader had read: whatever it had not read yet is gone.
    expect(recorder.gaps).to.equal(1);

    // A new instance has seen no id: the reader raised the head to what it had read, so ids go on from there.
    const fresh = aLog(await aClient());
    await untilItWorks(() => fresh.append(placedEvents(1)));
    await untilItWorks(() => other.append(placedEvents(2)));
    await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2', '3', '4', '5', '6']));
    await sleep(300);
    expect(recorder.ids).to.deep.equal(['1', '2', '3', '4', '5', '6']);
    expect(recorder.gaps).to.equal(1);
    expect(errors).to.have.length(1);
  });

  it('tells a listener whose unread events a restart lost (a gap), then delivers what comes after', async () => {
    const proxy = await tcpProxy(server.port);
    proxies.push(proxy);
    const errors: unknown[] = [];
    const reader = aLog(await aClient(proxy.url), { errors });
    const recorder = new EventRecorder();
    reader.subscribe(recorder);
    await reader.position();
    const writer = aLog(await aClient());
    await writer.append(placedEvents(3));
    await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2', '3']));

    proxy.cut();
    await eventually(() => expect(errors).to.have.length(1));
    await writer.append(placedEvents(2)); // 4 and 5: the reader is cut off and does not get them…
    await server.kill(); // …and Redis loses them.
    await server.start();
    await untilItWorks(() => writer.append(placedEvents(2))); // Above every id the writer saw: 6 and 7.
    proxy.heal();

    await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2', '3', '6', '7']), 8000);
    expect(recorder.gaps).to.equal(1);
    await sleep(300);
    expect(recorder.ids).to.deep.equal(['1', '2', '3', '6', '7']);
  });

  it('gives a listener that subscribed while Redis was down every event after what the log answered once back', async () => {
    const restored: unknown[] = [];
    const log = aLog(await aClient(), { restored });
    await server.kill();
    const recorder = new EventRecorder();
    log.subscribe(recorder);
    await sleep(300);
    await server.start();
    // A feed positions itself as soon as the log answers, likely before the reader could start again.
    const { head } = await untilItWorks(() => log.position());
    await log.append(placedEvents(2));
    await eventually(() => expect(recorder.idsAfter(head)).to.deep.equal(['1', '2']), 8000);
    expect(restored).to.have.length(1);
  });

  it('lets nothing escape during an outage, reports it once however many retries, and recovers', async () => {
    const escaped: unknown[] = [];
    const onEscape = (error: unknown): void => {
      escaped.push(error);
    };
    process.on('unhandledRejection', onEscape);
    process.on('uncaughtException', onEscape);
    try {
      const errors: unknown[] = [];
      const restored: unknown[] = [];
      // The reader's back-off runs on fake timers: its retries happen as the test moves them.
      const timers = new FakeTimers();
      const log = aLog(await aClient(), { errors, restored, timers });
      await server.kill();
      // Subscribing while Redis is down: the reader cannot even start.
      const recorder = new EventRecorder();
      log.subscribe(recorder);
      await rejectionOf(log.append(placedEvents(1)));
      await rejectionOf(log.position());
      await rejectionOf(log.readAfter('0', 10));
      // The reader retries, backing off from 50 ms to 1 s (between them it waits up to 1 s for the
      // connection): five retries, still one report.
      const backoffs = () => timers.delays.filter((ms) => ms !== 1000);
      for (let round = 0; backoffs().length < 5; round++) {
        if (round > 200) throw new Error(`the reader stopped retrying: ${JSON.stringify(timers.delays)}`);
        await sleep(5);
        await timers.run(1000);
      }
      expect(backoffs().slice(0, 5), 'the back-off').to.deep.equal([50, 100, 200, 400, 800]);
      expect(errors).to.have.length(1);

      await server.start();
      // The client reconnects in real time (its own back-off, up to 1 s); the reader's pauses move on.
      for (const deadline = Date.now() + 8000; restored.length === 0 && Date.now() < deadline; ) {
        await sleep(20);
        await timers.run(1000);
      }
      expect(restored).to.have.length(1);
      const writer = aLog(await aClient());
      await writer.append(placedEvents(2));
      await eventually(() => expect(recorder.ids).to.deep.equal(['1', '2']));
      expect(errors).to.have.length(1);
      expect(escaped).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onEscape);
      process.off('uncaughtException', onEscape);
    }
  });
});
