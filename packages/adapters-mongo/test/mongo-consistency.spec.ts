import { aProductDraft, aSession } from '@storefront/testing';
import { expect } from 'chai';
import { before, describe, it } from 'mocha';
import {
  COLLECTIONS,
  createMongoAdapters,
  type MenuRevisionDocument,
  type MongoAdapters,
} from '../src/index.js';
import { useTestDatabase } from './mongo-server.js';

describe('Mongo adapters without transactions', function () {
  const db = useTestDatabase();
  let adapters: MongoAdapters;
  before(async function () {
    adapters = await createMongoAdapters({ db: db() });
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

    it('changes when an item is 86ed, and not when it is 86ed again', async () => {
      const [product] = await adapters.menu.upsertByName([aProductDraft({ available: true })]);
      const revision = await adapters.menu.revision();
      expect((await adapters.menu.setAvailability(product!.productId, false))?.available).to.equal(false);
      const after = await adapters.menu.revision();
      expect(after).to.not.equal(revision);
      await adapters.menu.setAvailability(product!.productId, false);
      expect(await adapters.menu.revision()).to.equal(after);
    });

    it('changes after an availability write that was interrupted, even when the retry changes nothing', async () => {
      const [product] = await adapters.menu.upsertByName([aProductDraft({ available: false })]);
      const revision = await adapters.menu.revision();
      await db().collection<MenuRevisionDocument>(COLLECTIONS.meta).updateOne({ _id: 'menu' }, { $set: { writer: 'crashed' } });
      await adapters.menu.setAvailability(product!.productId, false);
      expect(await adapters.menu.revision()).to.not.equal(revision);
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
