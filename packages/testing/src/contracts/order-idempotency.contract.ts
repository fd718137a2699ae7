/**
 * The Idempotency-Key half of the OrderRepository contract: the atomic steps on one key record that
 * PlaceOrder builds its protocol from. `now` is passed explicitly (as the domain does), so lock and
 * record expiry are tested without a fake clock inside the store.
 */
import { it } from 'mocha';
import { expect } from 'chai';
import type { OrderRepository } from '@storefront/domain';
import type { ClaimResult, IdempotencyClaim } from '@storefront/domain/adapter-kit';
import { anIdempotencyClaim, anOrder, randomHex } from '../builders.js';

const at = (base: Date, ms: number): Date => new Date(base.getTime() + ms);

function heldRecord(result: ClaimResult) {
  if (result.kind !== 'held') throw new Error(`expected a held record, got ${result.kind}`);
  return result;
}

/** The order a claim reserved, as the domain would price it. */
function reservedOrder(claim: IdempotencyClaim) {
  return anOrder({ orderId: claim.orderId, customerId: claim.customerId, createdAt: claim.orderCreatedAt });
}

export function orderIdempotencyContract(factory: () => Promise<OrderRepository>): void {
  it('gives the first claim of a key `claimed`', async () => {
    const orders = await factory();
    expect(await orders.claimIdempotencyKey(anIdempotencyClaim(), new Date())).to.deep.equal({ kind: 'claimed' });
  });

  it('answers a second claim of a key in flight with the first claim as stored, changing nothing', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    const second = anIdempotencyClaim({ customerId: claim.customerId, key: claim.key, fingerprint: randomHex() }, now);
    const held = heldRecord(await orders.claimIdempotencyKey(second, now));
    expect(held.record).to.deep.equal({ ...claim, state: 'in_progress' });
    expect(held.order).to.equal(null);
    expect(heldRecord(await orders.claimIdempotencyKey(second, now)).record.owner).to.equal(claim.owner);
  });

  it('gives exactly one of 50 concurrent claims of a key `claimed`', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => orders.claimIdempotencyKey({ ...claim, owner: randomHex(10) }, now)),
    );
    expect(results.filter((r) => r.kind === 'claimed')).to.have.length(1);
    expect(results.filter((r) => r.kind === 'held')).to.have.length(49);
  });

  it("keeps another customer's use of the same key independent", async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    const other = anIdempotencyClaim({ key: claim.key }, now);
    expect(await orders.claimIdempotencyKey(other, now)).to.deep.equal({ kind: 'claimed' });
  });

  it('completes a record for its holder only, then answers claims with the reserved order', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    const order = reservedOrder(claim);
    await orders.insert(order);
    expect(await orders.completeIdempotencyKey(claim, 'someone-else')).to.equal(false);
    expect(heldRecord(await orders.claimIdempotencyKey(anIdempotencyClaim({ ...claim, owner: 'x' }), now)).record.state).to.equal('in_progress');
    expect(await orders.completeIdempotencyKey(claim, claim.owner)).to.equal(true);
    const held = heldRecord(await orders.claimIdempotencyKey({ ...claim, owner: 'later' }, now));
    expect(held.record.state).to.equal('completed');
    expect(held.order).to.deep.equal(order);
  });

  it('hands an in-flight record over from its holder only, keeping the fingerprint and the reserved order', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 1000) }, now);
    await orders.claimIdempotencyKey(claim, now);
    expect(await orders.takeOverIdempotencyKey(claim, 'not-the-holder', 'b', at(now, 60_000))).to.equal(false);
    expect(await orders.takeOverIdempotencyKey(claim, claim.owner, 'b', at(now, 60_000))).to.equal(true);
    // The first holder has lost the record: none of its steps changes it any more.
    expect(await orders.takeOverIdempotencyKey(claim, claim.owner, 'c', at(now, 60_000))).to.equal(false);
    expect(await orders.completeIdempotencyKey(claim, claim.owner)).to.equal(false);
    await orders.abandonIdempotencyKey(claim, claim.owner, now);
    await orders.releaseIdempotencyKey(claim, claim.owner);
    const held = heldRecord(await orders.claimIdempotencyKey({ ...claim, owner: 'd' }, now));
    expect(held.record).to.deep.equal({ ...claim, owner: 'b', lockExpiresAt: at(now, 60_000), state: 'in_progress' });
  });

  it('ends the lock of an abandoned record now and keeps the record', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.abandonIdempotencyKey(claim, 'not-the-holder', at(now, 5));
    expect(heldRecord(await orders.claimIdempotencyKey({ ...claim, owner: 'x' }, now)).record.lockExpiresAt).to.deep.equal(claim.lockExpiresAt);
    await orders.abandonIdempotencyKey(claim, claim.owner, at(now, 5));
    const held = heldRecord(await orders.claimIdempotencyKey({ ...claim, owner: 'x' }, at(now, 10)));
    expect(held.record).to.deep.equal({ ...claim, lockExpiresAt: at(now, 5), state: 'in_progress' });
  });

  it('deletes a released record for its holder only, so the key can be claimed again', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.releaseIdempotencyKey(claim, 'not-the-holder');
    expect((await orders.claimIdempotencyKey({ ...claim, owner: 'x' }, now)).kind).to.equal('held');
    await orders.releaseIdempotencyKey(claim, claim.owner);
    expect(await orders.claimIdempotencyKey({ ...claim, owner: 'x' }, now)).to.deep.equal({ kind: 'claimed' });
  });

  it('keeps a completed record when its holder releases it afterwards', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.insert(reservedOrder(claim));
    await orders.completeIdempotencyKey(claim, claim.owner);
    await orders.releaseIdempotencyKey(claim, claim.owner);
    expect(heldRecord(await orders.claimIdempotencyKey({ ...claim, owner: 'x' }, now)).record.state).to.equal('completed');
  });

  it('starts a new lifetime of a key whose record has expired, with the new claim', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 500), expiresAt: at(now, 1000) }, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.insert(reservedOrder(claim));
    await orders.completeIdempotencyKey(claim, claim.owner);
    const later = at(now, 1000);
    const again = anIdempotencyClaim({ customerId: claim.customerId, key: claim.key }, later);
    expect(await orders.claimIdempotencyKey(again, later)).to.deep.equal({ kind: 'claimed' });
    expect(heldRecord(await orders.claimIdempotencyKey({ ...again, owner: 'x' }, later)).record).to.deep.equal({ ...again, state: 'in_progress' });
  });

  it('stores an order once: inserting its id again answers the stored order', async () => {
    const orders = await factory();
    const order = anOrder();
    expect(await orders.insert(order)).to.deep.equal({ order, inserted: true });
    const again = await orders.insert({ ...order, amount: order.amount + 1 });
    expect(again).to.deep.equal({ order, inserted: false });
    expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).items).to.deep.equal([order]);
  });

  it('stores an order once when two inserts of its id race', async () => {
    const orders = await factory();
    const order = anOrder();
    const results = await Promise.all(Array.from({ length: 10 }, () => orders.insert(order)));
    expect(results.filter((r) => r.inserted)).to.have.length(1);
    expect((await orders.listByCustomer(order.customerId, { page: 1, limit: 20 })).total).to.equal(1);
  });

  it("finds a customer's order by id, and not another customer's", async () => {
    const orders = await factory();
    const order = anOrder();
    await orders.insert(order);
    expect(await orders.findOrder(order.customerId, order.orderId)).to.deep.equal(order);
    expect(await orders.findOrder(anOrder().customerId, order.orderId)).to.equal(null);
    expect(await orders.findOrder(order.customerId, anOrder().orderId)).to.equal(null);
  });
}
