import { describe, it } from 'mocha';
import { expect } from 'chai';
import { Semaphore, SemaphoreRefusedError } from '../src/semaphore.js';
import { rejectionOf } from './helpers.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A clock the test moves; the semaphore's one timer still fires, and then reads this clock. */
function manualClock(): { now: () => number; advance: (ms: number) => void } {
  let t = 0;
  return { now: () => t, advance: (ms) => void (t += ms) };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await rejectionOf(promise);
  expect(error).to.be.instanceOf(SemaphoreRefusedError);
  return (error as SemaphoreRefusedError).reason;
}

describe('Semaphore', () => {
  it('runs at most `permits` tasks at once and queues the rest', async () => {
    const semaphore = new Semaphore(2);
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((gate) => semaphore.run(() => gate.promise));
    expect(semaphore.stats).to.include({ active: 2, queued: 1, peakActive: 2 });
    gates.forEach((gate) => gate.resolve());
    await Promise.all(runs);
    expect(semaphore.stats).to.deep.equal({ active: 0, queued: 0, peakActive: 2, started: 3, refused: 0, abandoned: 0 });
  });

  it('starts queued tasks in arrival order', async () => {
    const semaphore = new Semaphore(1);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => semaphore.run(async () => void order.push(n))));
    expect(order).to.deep.equal([1, 2, 3, 4]);
  });

  it('releases the permit when a task fails', async () => {
    const semaphore = new Semaphore(1);
    const failed = semaphore.run(() => Promise.reject(new Error('boom')));
    const next = semaphore.run(async () => 'ran');
    expect(await rejectionOf(failed)).to.have.property('message', 'boom');
    expect(await next).to.equal('ran');
    expect(semaphore.stats.active).to.equal(0);
  });

  it('refuses a permit count that is not a positive integer, and a negative bound', () => {
    expect(() => new Semaphore(0)).to.throw(RangeError);
    expect(() => new Semaphore(1.5)).to.throw(RangeError);
    expect(() => new Semaphore(1, { maxQueue: -1 })).to.throw(RangeError);
    expect(() => new Semaphore(1, { maxQueue: 1.5 })).to.throw(RangeError);
    expect(() => new Semaphore(1, { maxWaitMs: -1 })).to.throw(RangeError);
  });

  describe('with a bounded queue', () => {
    it('refuses at once, without running it, a task arriving when maxQueue tasks already wait', async () => {
      const semaphore = new Semaphore(1, { maxQueue: 2 });
      const gate = deferred();
      const ran: string[] = [];
      const running = semaphore.run(() => gate.promise);
      const waiting = ['a', 'b'].map((name) => semaphore.run(async () => void ran.push(name)));
      const over = semaphore.run(async () => void ran.push('over'));
      expect(await refusal(over)).to.equal('full');
      expect(semaphore.stats).to.include({ active: 1, queued: 2, refused: 1 });
      gate.resolve();
      await Promise.all([running, ...waiting]);
      expect(ran).to.deep.equal(['a', 'b']);
      // Room again: the queue bound counts waiting tasks, not tasks ever refused.
      expect(await semaphore.run(async () => 'later')).to.equal('later');
    });

    it('with maxQueue 0 runs a task only when a permit is free', async () => {
      const semaphore = new Semaphore(1, { maxQueue: 0 });
      const gate = deferred();
      const running = semaphore.run(() => gate.promise);
      expect(await refusal(semaphore.run(async () => 'never'))).to.equal('full');
      gate.resolve();
      await running;
      expect(await semaphore.run(async () => 'now')).to.equal('now');
    });
  });

  describe('with a wait deadline', () => {
    it('refuses a task still waiting after maxWaitMs, never runs it, and keeps the FIFO for the others', async () => {
      const clock = manualClock();
      const semaphore = new Semaphore(1, { maxWaitMs: 50, now: clock.now });
      const gate = deferred();
      const ran: string[] = [];
      const running = semaphore.run(() => gate.promise);
      const early = semaphore.run(async () => void ran.push('early'));
      clock.advance(30);
      const late = semaphore.run(async () => void ran.push('late'));
      clock.advance(25); // `early` has waited 55 ms, `late` 25 ms
      expect(await refusal(early)).to.equal('timeout');
      expect(semaphore.stats).to.include({ queued: 1, refused: 1 });
      gate.resolve();
      await Promise.all([running, late]);
      expect(ran).to.deep.equal(['late']);
      expect(semaphore.stats).to.include({ active: 0, queued: 0, started: 2, refused: 1 });
    });

    it('refuses every waiter that is due, in order, then waits for the next', async () => {
      const clock = manualClock();
      const semaphore = new Semaphore(1, { maxWaitMs: 20, now: clock.now });
      const gate = deferred();
      const running = semaphore.run(() => gate.promise);
      const outcomes: string[] = [];
      const track = (name: string, p: Promise<unknown>) => p.then(() => outcomes.push(`${name} ran`), () => outcomes.push(`${name} refused`));
      const first = track('first', semaphore.run(async () => undefined));
      const second = track('second', semaphore.run(async () => undefined));
      clock.advance(10);
      const third = track('third', semaphore.run(async () => undefined));
      clock.advance(15); // first and second are due, third is not
      await Promise.all([first, second]);
      expect(outcomes).to.deep.equal(['first refused', 'second refused']);
      gate.resolve();
      await Promise.all([running, third]);
      expect(outcomes).to.deep.equal(['first refused', 'second refused', 'third ran']);
    });

    it('with maxWaitMs 0 never queues', async () => {
      const semaphore = new Semaphore(1, { maxWaitMs: 0 });
      const gate = deferred();
      const running = semaphore.run(() => gate.promise);
      expect(await refusal(semaphore.run(async () => 'never'))).to.equal('full');
      gate.resolve();
      await running;
    });
  });

  describe('with an abort signal', () => {
    it('drops a waiter whose signal fires, never runs it, and hands the permit to the next in line', async () => {
      const semaphore = new Semaphore(1);
      const gate = deferred();
      const ran: string[] = [];
      const running = semaphore.run(() => gate.promise);
      const abandoned = new AbortController();
      const first = semaphore.run(async () => void ran.push('abandoned'), abandoned.signal);
      const second = semaphore.run(async () => void ran.push('second'));
      abandoned.abort();
      expect(await refusal(first)).to.equal('aborted');
      expect(semaphore.stats).to.include({ queued: 1, abandoned: 1 });
      gate.resolve();
      await Promise.all([running, second]);
      expect(ran).to.deep.equal(['second']);
      expect(semaphore.stats).to.include({ active: 0, queued: 0, started: 2, abandoned: 1 });
    });

    it('never runs a task whose signal has already fired, even with a permit free', async () => {
      const semaphore = new Semaphore(1);
      const controller = new AbortController();
      controller.abort();
      let ran = false;
      expect(await refusal(semaphore.run(async () => void (ran = true), controller.signal))).to.equal('aborted');
      expect(ran).to.equal(false);
      expect(semaphore.stats).to.include({ active: 0, started: 0, abandoned: 1 });
    });

    it('never runs a waiter whose signal fires between the grant and its start', async () => {
      const semaphore = new Semaphore(1);
      // The caller gives up in the very instant the permit is handed over (when the semaphore stops
      // listening): no event reaches the queue any more, only `aborted` tells.
      const signal = { aborted: false, addEventListener: () => undefined, removeEventListener: () => void (signal.aborted = true) };
      const gate = deferred();
      let ran = false;
      const running = semaphore.run(() => gate.promise);
      const waiter = semaphore.run(async () => void (ran = true), signal);
      gate.resolve();
      await running;
      expect(await refusal(waiter)).to.equal('aborted');
      expect(ran).to.equal(false);
      expect(semaphore.stats).to.include({ active: 0, queued: 0, started: 1, abandoned: 1 });
      expect(await semaphore.run(async () => 'free')).to.equal('free');
    });

    it('stops listening to the signal of a task that started', async () => {
      const semaphore = new Semaphore(1);
      const controller = new AbortController();
      const gate = deferred();
      const running = semaphore.run(() => gate.promise);
      const waiter = semaphore.run(async () => 'ran', controller.signal);
      gate.resolve();
      await running;
      expect(await waiter).to.equal('ran');
      controller.abort(); // too late to matter, and must not corrupt the queue
      expect(semaphore.stats).to.include({ active: 0, queued: 0, abandoned: 0 });
      expect(await semaphore.run(async () => 'next')).to.equal('next');
    });
  });

  describe('fair between keys (client addresses)', () => {
    it('lets keys take turns, one task each, and serves a key with nothing waiting next', async () => {
      const semaphore = new Semaphore(1);
      const gate = deferred();
      const order: string[] = [];
      const running = semaphore.run(() => gate.promise, undefined, 'flood-a');
      const tasks = [
        ...['a1', 'a2', 'a3'].map((name) => semaphore.run(async () => void order.push(name), undefined, 'flood-a')),
        ...['b1', 'b2', 'b3'].map((name) => semaphore.run(async () => void order.push(name), undefined, 'flood-b')),
        semaphore.run(async () => void order.push('quiet'), undefined, 'quiet'),
      ];
      gate.resolve();
      await Promise.all([running, ...tasks]);
      expect(order).to.deep.equal(['quiet', 'b1', 'a1', 'b2', 'a2', 'b3', 'a3']);
    });

    it('when the places are full, takes one from the longest line for a key with fewer waiting, and refuses a key already holding its share', async () => {
      const semaphore = new Semaphore(1, { maxQueue: 4 });
      const gate = deferred();
      const order: string[] = [];
      const running = semaphore.run(() => gate.promise, undefined, 'flood');
      const flood = ['f1', 'f2', 'f3', 'f4'].map((name) => semaphore.run(async () => void order.push(name), undefined, 'flood'));
      const genuine = semaphore.run(async () => void order.push('genuine'), undefined, 'genuine');
      expect(await refusal(flood[3]!), 'the flood\'s newest gave up its place').to.equal('full');
      const second = semaphore.run(async () => void order.push('other'), undefined, 'other');
      expect(await refusal(flood[2]!)).to.equal('full');
      // Now 2 flood, 1 genuine, 1 other: no line is two longer than another's would be.
      expect(await refusal(semaphore.run(async () => void order.push('genuine-2'), undefined, 'genuine'))).to.equal('full');
      expect(semaphore.stats).to.include({ queued: 4, refused: 3 });
      gate.resolve();
      await Promise.all([running, flood[0], flood[1], genuine, second]);
      expect(order).to.deep.equal(['other', 'genuine', 'f1', 'f2']);
    });

    it('expires waiters by arrival whatever their key, and keeps the turns of the rest', async () => {
      const clock = manualClock();
      const semaphore = new Semaphore(1, { maxWaitMs: 50, now: clock.now });
      const gate = deferred();
      const order: string[] = [];
      const running = semaphore.run(() => gate.promise, undefined, 'x');
      const early = semaphore.run(async () => void order.push('a1'), undefined, 'a');
      clock.advance(30);
      const late = ['b1', 'a2'].map((name) => semaphore.run(async () => void order.push(name), undefined, name[0]));
      clock.advance(25);
      expect(await refusal(early)).to.equal('timeout');
      gate.resolve();
      await Promise.all([running, ...late]);
      // `b` came with nothing waiting, after `a`: its turn is first.
      expect(order).to.deep.equal(['b1', 'a2']);
    });
  });
});
