/**
 * The parts of the live order streams on their own, without a socket: the frames, the slot ticker,
 * one stream between its feed and its sink, and the registry's limit and token revalidation. Every
 * timing runs on a FakeTimers: nothing here waits for real time, so a busy machine changes nothing.
 */
import type { Caller, OrderEvent } from '@storefront/domain';
import type { Feed } from '@storefront/domain/adapter-kit';
import { DomainError } from '@storefront/domain';
import { anOrder, FakeTimers } from '@storefront/testing';
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { afterEach, describe, it } from 'mocha';
import { EventStream, type StreamOwner } from '../../src/sse/event-stream.js';
import { EventStreams, type EventStreamsOptions } from '../../src/sse/event-streams.js';
import { orderJson } from '../../src/mappers.js';
import { SlotTicker } from '../../src/sse/slot-ticker.js';
import { EventFrames, PING_FRAME, RESET_FRAME, RETRY_FRAME } from '../../src/sse/frames.js';
import { OpenStreams, type StreamEnd, type StreamSink } from '../../src/sse/streamed-replies.js';

/** Lets promises already settled run their callbacks (a revalidation's answer). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A sink that keeps what is written and how it ended. */
function aSink() {
  const written: string[] = [];
  const listeners: ((reason: StreamEnd) => void)[] = [];
  let ended = false;
  const sink: StreamSink = {
    write: (chunk) => (ended ? false : (written.push(chunk.toString()), true)),
    end: () => {
      if (ended) return;
      ended = true;
      for (const listener of listeners) listener('done');
    },
    get ended() {
      return ended;
    },
    onEnd: (listener) => void listeners.push(listener),
  };
  return { sink, written, isEnded: () => ended };
}

function aFeed() {
  const feed = { closed: 0, close: () => void (feed.closed += 1) };
  return feed satisfies Feed;
}

const PING = ': ping\n\n';
const AT = new Date('2030-01-02T03:04:05.678Z');

function statusEvent(id: string, overrides: Partial<OrderEvent> = {}): OrderEvent {
  return { id, type: 'order.status', orderId: 'ord_1', customerId: 'cus_1', version: 2, status: 'accepted', at: AT, ...overrides };
}

function anOwner(overrides: Partial<StreamOwner> = {}): StreamOwner {
  return { customerId: 'cus_1', sessionId: 'ses_1', token: 'token-1', expiresAt: Date.now() + 60_000, staffOnly: false, ...overrides };
}

function aCaller(role: 'customer' | 'staff' = 'customer'): Caller {
  return { customer: { customerId: 'cus_1', role } as Caller['customer'], claims: { sub: 'cus_1', sid: 'ses_1', exp: 0 } };
}

describe('EventFrames', () => {
  it('writes an order.status event as id, event and one data line of {order_id, status, version, at, reason}', () => {
    const text = new EventFrames().ofEvent(statusEvent('42', { status: 'rejected', reason: 'out of soup\non the line' })).toString();
    expect(text).to.equal(
      'id: 42\nevent: order.status\ndata: {"order_id":"ord_1","status":"rejected","version":2,"at":"2030-01-02T03:04:05.678Z","reason":"out of soup\\non the line"}\n\n',
    );
  });

  it('writes an order.placed event with the order exactly as GET /api/orders/{id} renders it', () => {
    const order = anOrder();
    const text = new EventFrames().ofEvent({ id: '7', type: 'order.placed', orderId: order.orderId, customerId: order.customerId, version: 1, status: 'placed', at: order.createdAt, order }).toString();
    const [id, event, data, ...rest] = text.split('\n');
    expect([id, event]).to.deep.equal(['id: 7', 'event: order.placed']);
    expect(JSON.parse(data!.slice('data: '.length))).to.deep.equal(orderJson(order));
    expect(rest).to.deep.equal(['', '']);
  });

  it('keeps each frame in a buffer of its own size: a frame lives as long as its event, and must not hold a shared slab', () => {
    const frame = new EventFrames().ofEvent(statusEvent('42', { status: 'accepted' }));
    expect(frame.buffer.byteLength).to.equal(frame.length);
  });

  it('writes a reset without an id, so that the client keeps the last id it really had', () => {
    expect(new EventFrames().of({ kind: 'reset' }).toString()).to.equal('event: reset\ndata: {}\n\n');
    expect(RESET_FRAME.toString()).to.not.include('id:');
    expect(RETRY_FRAME.toString()).to.equal('retry: 3000\n\n');
    expect(PING_FRAME.toString()).to.equal(': ping\n\n');
  });

  it('renders an event once, however many streams it is written to: one Buffer for all', () => {
    let reads = 0;
    const event = statusEvent('9');
    const counted = Object.defineProperty({ ...event }, 'orderId', { get: () => (reads += 1, 'ord_1'), enumerable: true }) as OrderEvent;
    const frames = new EventFrames();
    const texts = Array.from({ length: 1_000 }, () => frames.ofEvent(counted));
    expect(reads).to.equal(1);
    expect(new Set(texts).size).to.equal(1);
  });
});

describe('SlotTicker', () => {
  it('visits every item once per period, a slot at a time: 30 items in 15 slots, two a tick', () => {
    const timers = new FakeTimers();
    const visits: number[][] = [];
    const ticker = new SlotTicker<number>(1_500, 15, (item) => visits.at(-1)!.push(item), () => undefined, timers);
    for (let i = 0; i < 30; i++) ticker.add(i);
    for (let tick = 0; tick < 30; tick++) {
      visits.push([]);
      timers.advance(100);
    }
    expect(visits.map((tick) => tick.length)).to.deep.equal(Array(30).fill(2));
    const flat = visits.flat();
    for (let i = 0; i < 30; i++) expect(flat.filter((item) => item === i).length, `visits of ${i}`).to.equal(2);
  });

  it('runs its timer only while it has something to visit', () => {
    const timers = new FakeTimers();
    const ticker = new SlotTicker<number>(100, 15, () => undefined, () => undefined, timers);
    expect([ticker.running, timers.pending]).to.deep.equal([false, 0]);
    ticker.add(1);
    ticker.add(2);
    expect([ticker.running, timers.pending]).to.deep.equal([true, 1]);
    ticker.delete(1);
    expect(ticker.running).to.equal(true);
    ticker.delete(2);
    expect([ticker.running, timers.pending]).to.deep.equal([false, 0]);
  });

  it('goes on visiting the others when a visit throws, and reports the error', () => {
    const timers = new FakeTimers();
    const errors: unknown[] = [];
    const seen: number[] = [];
    const ticker = new SlotTicker<number>(30, 1, (item) => {
      seen.push(item);
      if (item === 1) throw new Error('broken visit');
    }, (error) => errors.push(error), timers);
    ticker.add(1);
    ticker.add(2);
    timers.advance(30);
    expect(seen).to.deep.equal([1, 2]);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(Error).with.property('message', 'broken visit');
  });
});

describe('EventStream', () => {
  const hooks = () => {
    const calls = { opened: 0, released: 0 };
    return { calls, hooks: { opened: () => void (calls.opened += 1), released: () => void (calls.released += 1) } };
  };

  it('holds what the feed hands over before the headers are out, then writes retry, the held items and the live ones in order', () => {
    const { calls, hooks: h } = hooks();
    const stream = new EventStream(anOwner(), new EventFrames(), h, Date.now());
    stream.push({ kind: 'event', event: statusEvent('1') });
    stream.push({ kind: 'reset' });
    const { sink, written } = aSink();
    stream.open(sink);
    stream.push({ kind: 'event', event: statusEvent('2', { version: 3, status: 'preparing' }) });
    expect(written.map((text) => text.split('\n')[0])).to.deep.equal(['retry: 3000', 'id: 1', 'event: reset', 'id: 2']);
    expect(calls.opened).to.equal(1);
  });

  it('closes its feed and gives its slot back once, whether it ends, is cancelled or both', () => {
    const { calls, hooks: h } = hooks();
    const feed = aFeed();
    const stream = new EventStream(anOwner(), new EventFrames(), h, Date.now());
    stream.attach(feed);
    const { sink } = aSink();
    stream.open(sink);
    sink.end();
    stream.cancel();
    stream.release();
    expect([feed.closed, calls.released]).to.deep.equal([1, 1]);
  });

  it('never starts once ended before its headers went out (a logout in between), and closes a feed attached after that', () => {
    const { calls, hooks: h } = hooks();
    const stream = new EventStream(anOwner(), new EventFrames(), h, Date.now());
    stream.end();
    const late = aFeed();
    stream.attach(late);
    const { sink, written, isEnded } = aSink();
    stream.open(sink);
    expect(isEnded()).to.equal(true);
    expect(written).to.deep.equal([]);
    expect([late.closed, calls.released, calls.opened]).to.deep.equal([1, 1, 0]);
  });

  it('lasts until its token expires: no longer, and not at all past it', () => {
    const now = Date.now();
    const { hooks: h } = hooks();
    expect(new EventStream(anOwner({ expiresAt: now + 1_234 }), new EventFrames(), h, now).maxDurationMs).to.equal(1_234);
    expect(new EventStream(anOwner({ expiresAt: now - 2_000 }), new EventFrames(), h, now).maxDurationMs).to.equal(0);
  });
});

describe('EventStreams', () => {
  let timers = new FakeTimers();
  const sinks: ReturnType<typeof aSink>[] = [];
  afterEach(() => {
    for (const s of sinks.splice(0)) s.sink.end();
    timers = new FakeTimers();
  });

  function opened(stream: EventStream) {
    const s = aSink();
    sinks.push(s);
    stream.open(s.sink);
    return s;
  }

  function aRegistry(execute: (token: string) => Promise<Caller>, options: EventStreamsOptions = {}) {
    return new EventStreams({ execute }, { clock: timers, timers, ...options });
  }

  const pings = (s: ReturnType<typeof aSink>) => s.written.filter((text) => text === PING).length;

  it('lets a caller hold at most perCaller streams, refuses the next with rate_limited and a retry after 5 s, and gives a slot back when one ends', () => {
    const registry = aRegistry(() => Promise.resolve(aCaller()), { perCaller: 2 });
    const first = registry.take(anOwner());
    registry.take(anOwner());
    let refusal: unknown;
    try {
      registry.take(anOwner());
    } catch (error) {
      refusal = error;
    }
    expect(refusal).to.be.instanceOf(DomainError).and.include({ code: 'rate_limited', retryAfterSeconds: 5 });
    // Another caller is not affected.
    registry.take(anOwner({ customerId: 'cus_2' }));
    first.cancel();
    expect(registry.heldBy('cus_1')).to.equal(1);
    registry.take(anOwner());
    expect(registry.size).to.equal(3);
  });

  it('ends every stream of a session at once, and only those', () => {
    const registry = aRegistry(() => Promise.resolve(aCaller()));
    const mine = opened(registry.take(anOwner({ sessionId: 'ses_a' })));
    const other = opened(registry.take(anOwner({ sessionId: 'ses_b' })));
    registry.endSession('ses_a');
    expect([mine.isEnded(), other.isEnded()]).to.deep.equal([true, false]);
    expect(registry.heldBy('cus_1')).to.equal(1);
  });

  it('pings every open stream once per period', () => {
    const registry = aRegistry(() => Promise.resolve(aCaller()), { pingMs: 45, revalidateMs: 60_000 });
    const streams = Array.from({ length: 20 }, (_, i) => opened(registry.take(anOwner({ customerId: `cus_${i}` }))));
    timers.advance(45);
    expect(streams.map(pings)).to.deep.equal(Array(20).fill(1));
    timers.advance(45);
    expect(streams.map(pings)).to.deep.equal(Array(20).fill(2));
  });

  it('pings at least every 15 s with the default period (DECISIONS "Live order updates")', () => {
    const registry = aRegistry(() => Promise.resolve(aCaller()), { revalidateMs: 3_600_000 });
    const s = opened(registry.take(anOwner({ expiresAt: timers.now().getTime() + 900_000 })));
    const at: number[] = [timers.now().getTime()];
    for (let step = 0; step < 600; step++) {
      const before = pings(s);
      timers.advance(100);
      if (pings(s) > before) at.push(timers.now().getTime());
    }
    const gaps = at.slice(1).map((time, i) => time - at[i]!);
    expect(gaps.length).to.be.at.least(4);
    expect(Math.max(...gaps)).to.be.at.most(15_000);
  });

  for (const code of ['invalid_token', 'token_expired', 'account_disabled'] as const) {
    it(`ends a stream whose token is refused again with ${code} (a revocation made elsewhere)`, async () => {
      let calls = 0;
      const registry = aRegistry(() => (calls++, Promise.reject(new DomainError(code, 'no'))), { pingMs: 15, revalidateMs: 15 });
      const s = opened(registry.take(anOwner()));
      await timers.run(15);
      expect(s.isEnded()).to.equal(true);
      expect(calls).to.equal(1);
      expect(registry.size).to.equal(0);
    });
  }

  it('keeps a stream whose token cannot be checked because the store fails, and checks again later', async () => {
    let calls = 0;
    const registry = aRegistry(() => (calls++, Promise.reject(new Error('store down'))), { pingMs: 15, revalidateMs: 15 });
    const s = opened(registry.take(anOwner()));
    await timers.run(45);
    expect(calls).to.equal(3);
    expect(s.isEnded()).to.equal(false);
  });

  it('ends a staff-only stream once its caller is no longer staff, and keeps a customer\'s own', async () => {
    const registry = aRegistry(() => Promise.resolve(aCaller('customer')), { pingMs: 15, revalidateMs: 15 });
    const staffOnly = opened(registry.take(anOwner({ staffOnly: true })));
    const own = opened(registry.take(anOwner()));
    await timers.run(15);
    expect(staffOnly.isEnded()).to.equal(true);
    await timers.run(45);
    expect(own.isEnded()).to.equal(false);
  });

  it('revalidates every revalidateMs in whole ping periods, one check at a time per stream', async () => {
    let calls = 0;
    let pending = 0;
    let most = 0;
    const registry = aRegistry(
      () => {
        calls += 1;
        most = Math.max(most, ++pending);
        // Each check takes 50 ms of the fake clock: longer than a ping period.
        return new Promise<Caller>((resolve) => timers.setTimeout(() => (pending -= 1, resolve(aCaller())), 50));
      },
      { pingMs: 15, revalidateMs: 45 },
    );
    const s = opened(registry.take(anOwner()));
    await timers.run(300);
    // Checks start on visits 3, 9, 15 (every third visit, none while one runs: 6, 12 and 18 are skipped).
    expect([most, calls]).to.deep.equal([1, 3]);
    expect(pings(s)).to.equal(20);
  });

  // DECISIONS: a stream ends within 15 s of the account being disabled or a staff account losing its
  // role. With the production periods, the check that sees it starts at most one period after the
  // change; here every check takes the store's whole time-out (PG_TIMEOUT_MS, 2 s) and reads the
  // account as it was when it started, the worst a store that answers can do.
  for (const change of ['disabled', 'demoted'] as const) {
    for (const when of ['just after a check read the account', 'just after the stream opened'] as const) {
      it(`ends a staff stream within 15 s of its account being ${change} ${when}, with the production periods and 2 s checks`, async () => {
        const account = { disabled: false, role: 'staff' as 'staff' | 'customer' };
        let checks = 0;
        const registry = aRegistry(() => {
          checks += 1;
          const seen = { ...account };
          return new Promise<Caller>((resolve, reject) =>
            timers.setTimeout(() => (seen.disabled ? reject(new DomainError('account_disabled', 'no')) : resolve(aCaller(seen.role))), 2_000),
          );
        });
        const s = opened(registry.take(anOwner({ staffOnly: true, expiresAt: timers.now().getTime() + 900_000 })));
        if (when === 'just after a check read the account') {
          while (checks === 0) await timers.run(10);
        }
        if (change === 'disabled') account.disabled = true;
        else account.role = 'customer';
        const changedAt = timers.now().getTime();
        while (!s.isEnded() && timers.now().getTime() - changedAt < 60_000) await timers.run(100);
        expect(s.isEnded()).to.equal(true);
        expect(timers.now().getTime() - changedAt, 'ms from the change to the end of the stream').to.be.at.most(15_000);
      });
    }
  }

  it('measures a token\'s expiry on its clock: the stream ends at the expiry, not before', async () => {
    const registry = aRegistry(() => Promise.resolve(aCaller()));
    const stream = registry.take(anOwner({ expiresAt: timers.now().getTime() + 1_234 }));
    expect(stream.maxDurationMs).to.equal(1_234);
  });
});

describe('OpenStreams deadlines', () => {
  function aResponse(destroyed = false) {
    const res = Object.assign(new EventEmitter(), { destroyed, writableEnded: false, writableLength: 0, write: () => true, end: () => void (res.writableEnded = true) });
    return res;
  }

  it('ends a stream at its deadline, on the injected timers', () => {
    const timers = new FakeTimers();
    const res = aResponse();
    const ends: StreamEnd[] = [];
    new OpenStreams(undefined, timers).start(res as never, { maxDurationMs: 5_000, open: () => undefined }, (reason) => ends.push(reason));
    timers.advance(4_999);
    expect(ends).to.deep.equal([]);
    timers.advance(1);
    expect([ends, res.writableEnded]).to.deep.equal([['deadline'], true]);
  });

  it('treats a deadline beyond what Node\'s timers hold as none, instead of ending the stream at once', () => {
    const timers = new FakeTimers();
    const res = aResponse();
    const ends: StreamEnd[] = [];
    const streams = new OpenStreams(undefined, timers);
    streams.start(res as never, { maxDurationMs: 2 ** 31, open: () => undefined }, (reason) => ends.push(reason));
    expect(timers.pending).to.equal(0);
    streams.endAll();
    expect(ends).to.deep.equal(['shutdown']);
  });

  it('cancels instead of opening a source whose client left before the headers went out', () => {
    const calls: string[] = [];
    const ends: StreamEnd[] = [];
    new OpenStreams().start(aResponse(true) as never, { open: () => void calls.push('open'), cancel: () => void calls.push('cancel') }, (reason) => ends.push(reason));
    expect([calls, ends]).to.deep.equal([['cancel'], ['client_closed']]);
  });
});
