/** A clock the test moves by hand: the one FakeClock of the test suites. Every use case accepts a Clock. */
import type { Clock } from '@storefront/domain';

export class FakeClock implements Clock {
  constructor(private ms = Date.UTC(2025, 0, 15, 12, 0, 0)) {}

  now(): Date {
    return new Date(this.ms);
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
