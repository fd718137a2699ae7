import { describe, it } from 'mocha';
import { expect } from 'chai';
import { Semaphore } from '../src/semaphore.js';
import { rejectionOf } from './helpers.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Semaphore', () => {
  it('runs at most `permits` tasks at once and queues the rest', async () => {
    const semaphore = new Semaphore(2);
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((gate) => semaphore.run(() => gate.promise));
    expect(semaphore.stats).to.deep.equal({ active: 2, queued: 1, peakActive: 2 });
    gates.forEach((gate) => gate.resolve());
    await Promise.all(runs);
    expect(semaphore.stats).to.deep.equal({ active: 0, queued: 0, peakActive: 2 });
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

  it('refuses a permit count that is not a positive integer', () => {
    expect(() => new Semaphore(0)).to.throw(RangeError);
    expect(() => new Semaphore(1.5)).to.throw(RangeError);
  });
});
