import type { StoreState } from './store.js';

/**
 * Port: the store's run-time state (paused or taking orders), shared by every instance. Readers
 * may cache it briefly (StoreGate: at most 1 s), so a change reaches every instance within 2 s.
 */
export interface StoreStateRepository {
  /** The current state; `DEFAULT_STORE_STATE` when none was ever set. */
  get(): Promise<StoreState>;
  /** Sets whether orders are taken; resolves to the state now stored. */
  setAcceptingOrders(acceptingOrders: boolean): Promise<StoreState>;
}
