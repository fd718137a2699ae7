import { aProductDraft, aSession, anIdempotencyClaim, anOrder, expectDomainError } from '@storefront/testing';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import {
  COLLECTIONS,
  createMongoAdapters,
  type MenuRevisionDocument,
  type MongoAdapters,
  type OrderDocument,
} from '../src/index.js';
import { toOrderDocument } from '../src/order-mapper.js';
import { useTestDatabase } from './mongo-server.js';

const DAY_MS = 24 * 3600 * 1000;
const at = (base: Date, ms: number): Date => new Date(base.getTime() + ms);

describe('Mongo adapters without transactions', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
  });

  describe('Idempotency-Key claims', () => {
    it('completes a crashed claim with the order it stored instead of letting another be placed', async () => {
      const now = new Date();
      const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 1000) }, now);
      expect(await adapters.orders.claimIdempotencyKey(claim, now)).to.deep.equal({ kind: 'claimed' });
      const order = anOrder({ customerId: claim.customerId, createdAt: now });
      // The request stored its order and died before completing its claim.
      await db().collection<OrderDocument>(COLLECTIONS.orders).insertOne(toOrderDocument(order, claim.key));
      const later = at(now, 2000);
      const retry = { ...claim, lockExpiresAt: at(later, 60_000) };
      expect(await adapters.orders.claimIdempotencyKey(retry, later)).to.deep.equal({
        kind: 'completed', fingerprint: claim.fingerprint, order,
      });
    });

    it('stores one order when a request that outlived its lock and its takeover both finish', async () => {
      const now = new Date();
      const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 1000) }, now);
      await adapters.orders.claimIdempotencyKey(claim, now);
      const later = at(now, 2000);
      expect(await adapters.orders.claimIdempotencyKey({ ...claim, lockExpiresAt: at(later, 60_000) }, later)).to.deep.equal({ kind: 'claimed' });
      const slow = anOrder({ customerId: claim.customerId, createdAt: at(now, 500) });
      const takeover = anOrder({ customerId: claim.customerId, createdAt: later });
      await adapters.orders.insert(slow, claim.key);
      await expectDomainError(adapters.orders.insert(takeover, claim.key), 'idempotency_key_in_use');
      expect((await adapters.orders.listByCustomer(claim.customerId, { page: 1, limit: 20 })).items).to.deep.equal([slow]);
      expect(await adapters.orders.claimIdempotencyKey(claim, later)).to.deep.equal({
        kind: 'completed', fingerprint: claim.fingerprint, order: slow,
      });
    });

    it('lets a key place a new order once its record has expired', async () => {
      const now = new Date();
      const claim = anIdempotencyClaim({ lockExpiresAt: at(now, 500), expiresAt: at(now, 1000) }, now);
      await adapters.orders.claimIdempotencyKey(claim, now);
      const first = anOrder({ customerId: claim.customerId, createdAt: now });
      await adapters.orders.insert(first, claim.key);
      const later = at(now, 2000);
      const again = anIdempotencyClaim({ customerId: claim.customerId, key: claim.key, lockExpiresAt: at(later, 60_000), expiresAt: at(later, DAY_MS) }, later);
      expect(await adapters.orders.claimIdempotencyKey(again, later)).to.deep.equal({ kind: 'claimed' });
      const second = anOrder({ customerId: claim.customerId, createdAt: later });
      await adapters.orders.insert(second, claim.key);
      expect(await adapters.orders.claimIdempotencyKey(again, later)).to.deep.equal({
        kind: 'completed', fingerprint: again.fingerprint, order: second,
      });
      expect((await adapters.orders.listByCustomer(claim.customerId, { page: 1, limit: 20 })).items).to.deep.equal([first, second]);
    });
  });

  describe('menu revision', () => {
    it('stays the same when an upsert changes nothing', async () => {
      const draft = aProductDraft();
      await adapters.menu.upsertByName([draft]);
      const revision = await adapters.menu.revision();
      await adapters.menu.upsertByName([{ ...draft }]);
      expect(await adapters.menu.revision()).to.equal(revision);
    });

    it('changes after a write that was interrupted, even when the retry finds nothing to change', async () => {
      const draft = aProductDraft();
      await adapters.menu.upsertByName([draft]);
      const revision = await adapters.menu.revision();
      // What a writer that died between its products and its bump leaves behind.
      await db().collection<MenuRevisionDocument>(COLLECTIONS.meta).updateOne({ _id: 'menu' }, { $set: { writer: 'crashed' } });
      await adapters.menu.upsertByName([draft]);
      const after = await adapters.menu.revision();
      expect(after).to.not.equal(revision);
      await adapters.menu.upsertByName([draft]);
      expect(await adapters.menu.revision()).to.equal(after);
    });
  });

  describe('sessions', () => {
    it('keeps only the newest 100 rotated hashes', async () => {
      const previous = Array.from({ length: 100 }, (_, i) => `old-${i}`);
      const session = aSession({ previousTokenHashes: previous });
      await adapters.sessions.create(session);
      expect(await adapters.sessions.rotate(session.sessionId, session.refreshTokenHash, 'next', session.expiresAt)).to.equal(true);
      const rotated = await adapters.sessions.findById(session.sessionId);
      expect(rotated!.previousTokenHashes).to.deep.equal([...previous.slice(1), session.refreshTokenHash]);
    });
  });
});
