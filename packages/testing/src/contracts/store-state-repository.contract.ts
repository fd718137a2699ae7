/**
 * What every StoreStateRepository must do: the kitchen's pause switch, shared by every instance.
 * A shared store (one Mongo database per suite) may hold another test's state, so each test sets
 * the state it starts from, except the first, which needs a store nobody has written to.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { StoreStateRepository } from '@storefront/domain';

export function describeStoreStateRepositoryContract(name: string, factory: () => Promise<StoreStateRepository>): void {
  describe(`${name} (StoreStateRepository contract)`, () => {
    it('takes orders when nobody has ever paused it', async () => {
      const states = await factory();
      expect(await states.get()).to.deep.equal({ acceptingOrders: true });
    });

    it('pauses ordering, and every later read sees the pause', async () => {
      const states = await factory();
      expect(await states.setAcceptingOrders(false)).to.deep.equal({ acceptingOrders: false });
      expect(await states.get()).to.deep.equal({ acceptingOrders: false });
      expect(await states.get()).to.deep.equal({ acceptingOrders: false });
    });

    it('takes orders again once set back to true', async () => {
      const states = await factory();
      await states.setAcceptingOrders(false);
      expect(await states.setAcceptingOrders(true)).to.deep.equal({ acceptingOrders: true });
      expect(await states.get()).to.deep.equal({ acceptingOrders: true });
    });

    it('answers the stored state when set to what it already is', async () => {
      const states = await factory();
      await states.setAcceptingOrders(false);
      expect(await states.setAcceptingOrders(false)).to.deep.equal({ acceptingOrders: false });
      expect(await states.get()).to.deep.equal({ acceptingOrders: false });
      await states.setAcceptingOrders(true);
    });

    it('is not changed by edits to the state it handed out', async () => {
      const states = await factory();
      await states.setAcceptingOrders(true);
      const state = await states.get();
      try {
        (state as { acceptingOrders: boolean }).acceptingOrders = false;
      } catch {
        // A frozen state refuses the change, which is just as good.
      }
      expect(await states.get()).to.deep.equal({ acceptingOrders: true });
    });
  });
}
