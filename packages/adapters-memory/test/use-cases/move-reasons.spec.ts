/**
 * A move's reason is decided by one rule (planMove), whoever moves the order: the kitchen through
 * MoveOrder (the status route, the CLI) or an embedder planning a move itself gets the same answer
 * and the same message.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { DomainError, Order } from '@storefront/domain';
import type { MoveRequest } from '@storefront/domain/adapter-kit';
import { isDomainError } from '@storefront/domain';
import { planMove } from '@storefront/domain/adapter-kit';
import { aWorld, withMenu } from './world.js';

async function aPlacedOrder() {
  const world = aWorld();
  const { soup } = await withMenu(world);
  const owner = await world.storefront.registerCustomer.execute({ email: 'olga@example.com', name: 'Olga', password: 'olga-password' });
  const { order } = await world.storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 1 }] });
  return { storefront: world.storefront, order, now: world.clock.now() };
}

/** The details of the validation_failed `run` throws; fails on anything else. */
async function validationDetails(run: () => unknown): Promise<unknown> {
  const error = await Promise.resolve().then(run).then(() => undefined, (e: unknown) => e);
  expect(isDomainError(error, 'validation_failed'), String(error)).to.equal(true);
  return (error as DomainError).details;
}

describe('The reason of a move', () => {
  for (const [name, reason] of [['empty', ''], ['blank', '   '], ['201 characters', 'r'.repeat(201)]] as const) {
    it(`is refused when ${name}, with the same issue through MoveOrder and planMove`, async () => {
      const { storefront, order, now } = await aPlacedOrder();
      const throughUseCase = await validationDetails(() => storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason }));
      const planned = await validationDetails(() => planMove(order, { to: 'rejected', by: 'staff', reason }, now));
      expect(planned).to.deep.equal(throughUseCase);
      expect(planned).to.deep.equal([{ path: 'reason', message: 'must be a string of 1 to 200 characters' }]);
    });
  }

  it('is kept trimmed, through MoveOrder and planMove alike', async () => {
    const { storefront, order, now } = await aPlacedOrder();
    expect(planMove(order, { to: 'rejected', by: 'staff', reason: '  Out of dough  ' }, now).reason).to.equal('Out of dough');
    const moved = await storefront.moveOrder.execute({ orderId: order.orderId, status: 'rejected', reason: '  Out of dough  ' });
    expect(moved.reason).to.equal('Out of dough');
  });

  it("is required of the kitchen's cancel, refused on the kitchen's accept, and dropped from the owner's own cancel", async () => {
    const { storefront, order, now } = await aPlacedOrder();
    const plan = (request: MoveRequest): Order['reason'] => planMove(order, request, now).reason;
    expect(await validationDetails(() => plan({ to: 'cancelled', by: 'staff' }))).to.deep.equal([{ path: 'reason', message: 'is required: 1 to 200 characters' }]);
    const refused = [{ path: 'reason', message: 'is only for rejected and cancelled' }];
    expect(await validationDetails(() => plan({ to: 'accepted', by: 'staff', reason: 'Because' }))).to.deep.equal(refused);
    expect(await validationDetails(() => storefront.moveOrder.execute({ orderId: order.orderId, status: 'accepted', reason: 'Because' }))).to.deep.equal(refused);
    expect(plan({ to: 'cancelled', by: 'owner', reason: 'Changed my mind' })).to.equal(undefined);
  });
});
