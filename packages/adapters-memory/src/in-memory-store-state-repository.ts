/** The kitchen's pause switch in process memory: one instance is the whole store. */
import type { StoreState, StoreStateRepository } from '@storefront/domain';
import { DEFAULT_STORE_STATE } from '@storefront/domain/adapter-kit';

export class InMemoryStoreStateRepository implements StoreStateRepository {
  private state: StoreState = Object.freeze({ ...DEFAULT_STORE_STATE });

  get(): Promise<StoreState> {
    return Promise.resolve(this.state);
  }

  setAcceptingOrders(acceptingOrders: boolean): Promise<StoreState> {
    this.state = Object.freeze({ acceptingOrders });
    return Promise.resolve(this.state);
  }
}
