/**
 * Whether the store takes orders now: its opening hours (pure, from configuration) and the
 * kitchen's pause (StoreStateRepository, shared by every instance). The shared state is read at most
 * once a second per instance and at once after a change made here, so a pause set on one instance
 * holds on every other within 2 s without a store read per order.
 */
import { DomainError } from '../shared/errors.js';
import type { StoreSettings, StoreState, StoreStatus } from './store.js';
import type { OpeningHours } from './opening-hours.js';
import type { Clock } from '../shared/security.js';
import type { StoreStateRepository } from './store-state-repository.js';

/** How long a read of the shared store state is reused. */
export const STORE_STATE_CACHE_MS = 1000;

export class StoreGate {
  private cached: { readonly state: StoreState; readonly readAtMs: number } | null = null;
  private reading: Promise<StoreState> | null = null;

  constructor(
    private readonly states: StoreStateRepository,
    readonly hours: OpeningHours,
    readonly settings: StoreSettings,
    private readonly clock: Clock,
  ) {}

  /** The shared state, reused for up to a second; concurrent readers share one read. */
  async state(): Promise<StoreState> {
    const nowMs = this.clock.now().getTime();
    return this.reusable(nowMs) ?? this.read(nowMs);
  }

  /** The state read less than a second ago (and not in the future of `nowMs`), if any. */
  private reusable(nowMs: number): StoreState | undefined {
    const cached = this.cached;
    return cached !== null && nowMs - cached.readAtMs < STORE_STATE_CACHE_MS && nowMs >= cached.readAtMs ? cached.state : undefined;
  }

  /** Reads the shared state (one read for concurrent callers), kept as read at `nowMs`. */
  private read(nowMs: number): Promise<StoreState> {
    this.reading ??= this.states.get().then(
      (state) => {
        this.cached = { state, readAtMs: nowMs };
        this.reading = null;
        return state;
      },
      (error: unknown) => {
        this.reading = null;
        throw error;
      },
    );
    return this.reading;
  }

  /** Sets the shared state and uses it here at once. */
  async setAcceptingOrders(acceptingOrders: boolean): Promise<StoreState> {
    const state = await this.states.setAcceptingOrders(acceptingOrders);
    this.cached = { state, readAtMs: this.clock.now().getTime() };
    return state;
  }

  async status(): Promise<StoreStatus> {
    const now = this.clock.now();
    const state = await this.state();
    return {
      name: this.settings.name,
      currency: this.settings.currency,
      pricesIncludeTax: this.settings.taxes.pricesIncludeTax,
      timeZone: this.hours.timeZone,
      openNow: this.hours.isOpen(now),
      acceptingOrders: state.acceptingOrders,
      openingHours: this.hours.schedule,
      nextChangeAt: this.hours.nextChange(now),
    };
  }

  /**
   * Throws `store_closed` unless an order placed now would be taken. A promise only when the
   * shared state has to be read: every placement asks, and most find it read within the second.
   */
  assertTakingOrders(): Promise<void> | undefined {
    const now = this.clock.now();
    if (!this.hours.isOpen(now)) {
      const opens = this.hours.nextChange(now);
      throw new DomainError('store_closed', `The store is closed now${opens === null ? '' : `; it opens at ${opens.toISOString()}`}.`);
    }
    const nowMs = now.getTime();
    const state = this.reusable(nowMs);
    if (state !== undefined) return refusePaused(state);
    return this.read(nowMs).then(refusePaused);
  }
}

function refusePaused(state: StoreState): undefined {
  if (!state.acceptingOrders) throw new DomainError('store_closed', 'The kitchen has paused ordering for now; try again later.');
  return undefined;
}
