import type { StoreStatus } from './store.js';
import type { StoreGate } from './store-gate.js';

/** `GET /api/store`. */
export class GetStoreStatus {
  constructor(private readonly gate: StoreGate) {}

  execute(): Promise<StoreStatus> {
    return this.gate.status();
  }
}
