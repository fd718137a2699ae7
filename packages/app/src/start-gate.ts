/**
 * Whether this instance has finished starting: schema migrated, menu file or demo data loaded,
 * accounts seeded (DECISIONS "Ready means ready"). Until it opens, /api/status reports the store
 * down and every other request is answered 503 with Retry-After. It opens once and stays open:
 * what fails later is reported by the status checks themselves.
 */
import type { HealthProbe } from '@storefront/domain';

export class StartGate {
  private opened = false;

  get isOpen(): boolean {
    return this.opened;
  }

  open(): void {
    this.opened = true;
  }

  /** `probe`, reported down while the gate is shut (the store is not prepared yet). */
  guard(probe: HealthProbe): HealthProbe {
    return {
      name: probe.name,
      check: () => (this.opened ? probe.check() : Promise.reject(new Error('the store is still being prepared'))),
    };
  }
}
