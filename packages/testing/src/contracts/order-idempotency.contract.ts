/**
 * The Idempotency-Key half of the OrderRepository contract. `now` is passed explicitly (as the
 * domain does), so lock expiry is tested without a fake clock inside the store.
 */
import { it } from 'mocha';
import { expect } from 'chai';
import type { OrderRepository } from '@storefront/domain';
import { anIdempotencyClaim, anOrder, randomHex } from '../builders.js';

export function orderIdempotencyContract(factory: () => Promise<OrderRepository>): void {
  it('gives the first claim of a key `claimed`', async () => {
    const orders = await factory();
    expect(await orders.claimIdempotencyKey(anIdempotencyClaim(), new Date())).to.deep.equal({ kind: 'claimed' });
  });

  it('answers a second claim of a key in flight with `in_progress` and the first fingerprint', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    const again = await orders.claimIdempotencyKey({ ...claim, fingerprint: randomHex() }, now);
    expect(again).to.deep.equal({ kind: 'in_progress', fingerprint: claim.fingerprint });
  });

  it('answers a claim after insert(order, key) with `completed`, the order and the fingerprint', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    expect((await orders.claimIdempotencyKey(claim, now)).kind).to.equal('claimed');
    const order = anOrder({ customerId: claim.customerId });
    await orders.insert(order, claim.key);
    const again = await orders.claimIdempotencyKey({ ...claim, fingerprint: randomHex() }, now);
    expect(again).to.deep.equal({ kind: 'completed', fingerprint: claim.fingerprint, order });
    expect((await orders.listByCustomer(claim.customerId, { page: 1, limit: 20 })).items).to.deep.equal([order]);
  });

  it("keeps another customer's use of the same key independent", async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.insert(anOrder({ customerId: claim.customerId }), claim.key);
    const other = anIdempotencyClaim({ key: claim.key }, now);
    expect(await orders.claimIdempotencyKey(other, now)).to.deep.equal({ kind: 'claimed' });
    expect((await orders.claimIdempotencyKey(other, now)).kind).to.equal('in_progress');
  });

  it('lets a retry claim a key again after it was released', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    await orders.releaseIdempotencyKey(claim.customerId, claim.key);
    expect(await orders.claimIdempotencyKey(claim, now)).to.deep.equal({ kind: 'claimed' });
  });

  it('lets a claim whose lock has expired be taken over', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({ lockExpiresAt: new Date(now.getTime() + 1000) }, now);
    await orders.claimIdempotencyKey(claim, now);
    const before = new Date(now.getTime() + 999);
    expect((await orders.claimIdempotencyKey(claim, before)).kind).to.equal('in_progress');
    const later = new Date(now.getTime() + 2000);
    const takeover = { ...claim, lockExpiresAt: new Date(later.getTime() + 60_000) };
    expect(await orders.claimIdempotencyKey(takeover, later)).to.deep.equal({ kind: 'claimed' });
    expect((await orders.claimIdempotencyKey(takeover, later)).kind).to.equal('in_progress');
  });

  it('gives exactly one of 50 concurrent claims of a key `claimed`', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    const results = await Promise.all(Array.from({ length: 50 }, () => orders.claimIdempotencyKey(claim, now)));
    expect(results.filter((r) => r.kind === 'claimed')).to.have.length(1);
    expect(results.filter((r) => r.kind === 'in_progress')).to.have.length(49);
  });

  it('keeps a completed key completed when it is released afterwards', async () => {
    const orders = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await orders.claimIdempotencyKey(claim, now);
    const order = anOrder({ customerId: claim.customerId });
    await orders.insert(order, claim.key);
    await orders.releaseIdempotencyKey(claim.customerId, claim.key);
    expect(await orders.claimIdempotencyKey(claim, now)).to.deep.equal({
      kind: 'completed', fingerprint: claim.fingerprint, order,
    });
  });
}
