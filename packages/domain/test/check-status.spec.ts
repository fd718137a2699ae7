import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { HealthProbe } from '../src/status/health.js';
import type { Clock } from '../src/shared/security.js';
import { setTimer } from '../src/shared/timers.js';
import { CheckStatus } from '../src/status/check-status.js';

class ManualClock implements Clock {
  constructor(public ms = Date.parse('2030-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.ms);
  }
}

/** A probe that counts its checks; `healthy` decides the answer, `gate` holds it until opened. */
class CountingProbe implements HealthProbe {
  checks = 0;
  healthy = true;
  private gate: Promise<void> | null = null;
  private openGate: () => void = () => undefined;

  constructor(readonly name: string) {}

  check(): Promise<void> {
    this.checks += 1;
    const answer = (): Promise<void> => (this.healthy ? Promise.resolve() : Promise.reject(new Error('down')));
    return this.gate === null ? answer() : this.gate.then(answer);
  }

  hold(): void {
    this.gate = new Promise<void>((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate();
    this.gate = null;
  }
}

describe('CheckStatus', () => {
  it('asks the dependencies once for two calls within a second, and again a second later', async () => {
    const clock = new ManualClock();
    const store = new CountingProbe('store');
    const status = new CheckStatus([store], clock);
    expect(await status.execute()).to.deep.equal({ status: 'ok', checks: { store: 'ok' } });
    clock.ms += 999;
    expect(await status.execute()).to.deep.equal({ status: 'ok', checks: { store: 'ok' } });
    expect(store.checks).to.equal(1);
    clock.ms += 1;
    await status.execute();
    expect(store.checks).to.equal(2);
  });

  it('answers what the dependencies said at most a second ago: a store that went down shows after the second', async () => {
    const clock = new ManualClock();
    const store = new CountingProbe('store');
    const status = new CheckStatus([store, new CountingProbe('rate_limiter')], clock);
    await status.execute();
    store.healthy = false;
    clock.ms += 500;
    expect((await status.execute()).status).to.equal('ok');
    clock.ms += 500;
    expect(await status.execute()).to.deep.equal({ status: 'degraded', checks: { store: 'down', rate_limiter: 'ok' } });
    // A degraded answer is reused too: a failing store is the one to spare.
    clock.ms += 999;
    await status.execute();
    expect(store.checks).to.equal(2);
  });

  it('lets callers that arrive while a check runs share it, even past a second', async () => {
    const clock = new ManualClock();
    const store = new CountingProbe('store');
    const status = new CheckStatus([store], clock, { timeoutMs: 60_000 });
    store.hold();
    const first = status.execute();
    clock.ms += 5_000;
    const second = status.execute();
    await new Promise<void>((resolve) => setTimer(resolve, 0)); // the probe is called a tick later
    expect(store.checks).to.equal(1);
    store.release();
    expect(await first).to.deep.equal(await second);
    expect(store.checks).to.equal(1);
  });

  it('checks again when the clock has gone back', async () => {
    const clock = new ManualClock();
    const store = new CountingProbe('store');
    const status = new CheckStatus([store], clock);
    await status.execute();
    clock.ms -= 10;
    await status.execute();
    expect(store.checks).to.equal(2);
  });
});
