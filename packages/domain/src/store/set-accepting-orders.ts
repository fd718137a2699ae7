import type { StoreStatus } from './store.js';
import type { StoreGate } from './store-gate.js';

/** Pauses ordering (false) until set back (true); shared by every instance. */
export class SetAcceptingOrders {
  constructor(private readonly gate: StoreGate) {}

  async execute(input: { readonly acceptingOrders: boolean }): Promise<StoreStatus> {
    await this.gate.setAcceptingOrders(input.acceptingOrders);
    return this.gate.status();
  }
}
