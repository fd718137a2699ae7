/**
 * What every IdempotencyKeys must do: the atomic steps on one key record that
 * PlaceOrder builds its protocol from. `now` is passed explicitly (as the domain does), so lock and
 * record expiry are tested without a fake clock inside the store.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { IdempotencyKeys, OrderRepository } from '@storefront/domain';
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

/** The key records, and the orders' store they read a completed record's order from. */
export interface IdempotencyStores {
  readonly orders: OrderRepository;
  readonly idempotencyKeys: IdempotencyKeys;
}

export function describeIdempotencyKeysContract(name: string, factory: () => Promise<IdempotencyStores>): void {
  describe(`${name} (IdempotencyKeys contract)`, () => idempotencyKeysContract(factory));
}

function idempotencyKeysContract(factory: () => Promise<IdempotencyStores>): void {
  it('gives the first claim of a key `claimed`', async () => {
    const { idempotencyKeys: keys } = await factory();
    expect(await keys.claim(anIdempotencyClaim(), new Date())).to.deep.equal({ kind: 'claimed' });
  });

  it('answers a second claim of a key in flight with the first claim as stored, changing nothing', async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    const second = anIdempotencyClaim({ customerId: claim.customerId, key: claim.key, fingerprint: randomHex() }, now);
    const held = heldRecord(await keys.claim(second, now));
    expect(held.record).to.deep.equal({ ...claim, state: 'in_progress' });
    expect(held.order).to.equal(null);
    expect(heldRecord(await keys.claim(second, now)).record.owner).to.equal(claim.owner);
  });

  it('gives exactly one of 50 concurrent claims of a key `claimed`', async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    const results = await Promise.all(
      Array.from({ length: 50 }, () => keys.claim({ ...claim, owner: randomHex(10) }, now)),
    );
    expect(results.filter((r) => r.kind === 'claimed')).to.have.length(1);
    expect(results.filter((r) => r.kind === 'held')).to.have.length(49);
  });

  it("keeps another customer's use of the same key independent", async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    const other = anIdempotencyClaim({ key: claim.key }, now);
    expect(await keys.claim(other, now)).to.deep.equal({ kind: 'claimed' });
  });

  it('completes a record for its holder only, then answers claims with the reserved order', async () => {
    const { orders, idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    const order = reservedOrder(claim);
    await orders.insert(order);
    expect(await keys.complete(claim, 'someone-else')).to.equal(false);
    expect(heldRecord(await keys.claim(anIdempotencyClaim({ ...claim, owner: 'x' }), now)).record.state).to.equal('in_progress');
    expect(await keys.complete(claim, claim.owner)).to.equal(true);
    const held = heldRecord(await keys.claim({ ...claim, owner: 'later' }, now));
    expect(held.record.state).to.equal('completed');
    expect(held.order).to.deep.equal(order);
  });

  it('hands an in-flight record over from its holder only, keeping the fingerprint and the reserved order', async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 1000) }, now);
    await keys.claim(claim, now);
    expect(await keys.takeOver(claim, 'not-the-holder', 'b', at(now, 60_000))).to.equal(false);
    expect(await keys.takeOver(claim, claim.owner, 'b', at(now, 60_000))).to.equal(true);
    // The first holder has lost the record: none of its steps changes it any more.
    expect(await keys.takeOver(claim, claim.owner, 'c', at(now, 60_000))).to.equal(false);
    expect(await keys.complete(claim, claim.owner)).to.equal(false);
    await keys.abandon(claim, claim.owner, now);
    await keys.release(claim, claim.owner);
    const held = heldRecord(await keys.claim({ ...claim, owner: 'd' }, now));
    expect(held.record).to.deep.equal({ ...claim, owner: 'b', lockExpiresAt: at(now, 60_000), state: 'in_progress' });
  });

  it('ends the lock of an abandoned record now and keeps the record', async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    await keys.abandon(claim, 'not-the-holder', at(now, 5));
    expect(heldRecord(await keys.claim({ ...claim, owner: 'x' }, now)).record.lockExpiresAt).to.deep.equal(claim.lockExpiresAt);
    await keys.abandon(claim, claim.owner, at(now, 5));
    const held = heldRecord(await keys.claim({ ...claim, owner: 'x' }, at(now, 10)));
    expect(held.record).to.deep.equal({ ...claim, lockExpiresAt: at(now, 5), state: 'in_progress' });
  });

  it('deletes a released record for its holder only, so the key can be claimed again', async () => {
    const { idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    await keys.release(claim, 'not-the-holder');
    expect((await keys.claim({ ...claim, owner: 'x' }, now)).kind).to.equal('held');
    await keys.release(claim, claim.owner);
    expect(await keys.claim({ ...claim, owner: 'x' }, now)).to.deep.equal({ kind: 'claimed' });
  });

  it('keeps a completed record when its holder releases it afterwards', async () => {
    const { orders, idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({}, now);
    await keys.claim(claim, now);
    await orders.insert(reservedOrder(claim));
    await keys.complete(claim, claim.owner);
    await keys.release(claim, claim.owner);
    expect(heldRecord(await keys.claim({ ...claim, owner: 'x' }, now)).record.state).to.equal('completed');
  });

  it('starts a new lifetime of a key whose record has expired, with the new claim', async () => {
    const { orders, idempotencyKeys: keys } = await factory();
    const now = new Date();
    const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 500), expiresAt: at(now, 1000) }, now);
    await keys.claim(claim, now);
    await orders.insert(reservedOrder(claim));
    await keys.complete(claim, claim.owner);
    const later = at(now, 1000);
    const again = anIdempotencyClaim({ customerId: claim.customerId, key: claim.key }, later);
    expect(await keys.claim(again, later)).to.deep.equal({ kind: 'claimed' });
    expect(heldRecord(await keys.claim({ ...again, owner: 'x' }, later)).record).to.deep.equal({ ...again, state: 'in_progress' });
  });
}
