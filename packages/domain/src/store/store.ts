/** The store as customers see it: who it is, and whether it takes orders now. */
import type { TaxSettings } from '../taxes/tax-settings.js';

/** What the kitchen controls at run time, shared by every instance (StoreStateRepository). */
export interface StoreState {
  /** False while the kitchen has paused ordering (a busy kitchen); true again when it resumes. */
  readonly acceptingOrders: boolean;
}

/** Fixed by configuration. */
export interface StoreSettings {
  readonly name: string;
  /** ISO 4217, store-wide. */
  readonly currency: string;
  /** How orders are taxed. */
  readonly taxes: TaxSettings;
}

/** `GET /api/store`: whether an order placed now would be taken, and why not. */
export interface StoreStatus {
  readonly name: string;
  readonly currency: string;
  /** Whether menu prices include the tax (else it is added on top). */
  readonly pricesIncludeTax: boolean;
  readonly timeZone: string;
  /** The opening hours have the store open now. */
  readonly openNow: boolean;
  readonly acceptingOrders: boolean;
  /** The schedule as configured, null when always open. */
  readonly openingHours: string | null;
  /** When `openNow` next changes; null when always open. */
  readonly nextChangeAt: Date | null;
}

export const DEFAULT_STORE_STATE: StoreState = { acceptingOrders: true };
