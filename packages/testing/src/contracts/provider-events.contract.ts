/**
 * What every ProviderEvents must do (issue 35 item 5). Each test uses fresh event ids; the
 * retention test works in a year of its own, so a store shared by the file's tests still counts right.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { PROVIDER_EVENT_LEASE_MS, type ProviderEvents } from '@storefront/domain/adapter-kit';
import { randomHex } from '../builders.js';

const at = (iso: string, plusMs = 0): Date => new Date(new Date(iso).getTime() + plusMs);
const anEventId = (): string => `evt_${randomHex(12)}`;
const RACERS = 20;

export function describeProviderEventsContract(name: string, factory: () => Promise<ProviderEvents>): void {
  describe(`${name} (ProviderEvents contract)`, () => {
    const t = '2025-06-01T12:00:00Z';

    it('claims an event id the first time and refuses a repeat', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
      expect(await events.claim('stripe', id, at(t, 1))).to.equal(false);
      expect(await events.isCompleted('stripe', id)).to.equal(false);
    });

    it(`gives exactly one of ${RACERS} concurrent claims of one id`, async () => {
      const events = await factory();
      const id = anEventId();
      const claims = await Promise.all(Array.from({ length: RACERS }, () => events.claim('stripe', id, at(t))));
      expect(claims.filter(Boolean)).to.have.length(1);
    });

    it('keeps the ids of different providers apart', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
      expect(await events.claim('other', id, at(t))).to.equal(true);
      await events.complete('stripe', id, at(t, 10));
      expect(await events.isCompleted('other', id)).to.equal(false);
      expect(await events.claim('other', id, at(t, PROVIDER_EVENT_LEASE_MS))).to.equal(true);
    });

    it('never gives a completed id again, however late the repeat', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
      await events.complete('stripe', id, at(t, 10));
      expect(await events.isCompleted('stripe', id)).to.equal(true);
      expect(await events.claim('stripe', id, at(t, 1))).to.equal(false);
      expect(await events.claim('stripe', id, at(t, 100 * PROVIDER_EVENT_LEASE_MS))).to.equal(false);
      await events.complete('stripe', id, at(t, 20));
      expect(await events.isCompleted('stripe', id)).to.equal(true);
    });

    it('gives an unfinished claim again once its lease has passed, to exactly one of the racers', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
      expect(await events.claim('stripe', id, at(t, PROVIDER_EVENT_LEASE_MS - 1)), 'within the lease').to.equal(false);
      const lapsed = at(t, PROVIDER_EVENT_LEASE_MS);
      const claims = await Promise.all(Array.from({ length: RACERS }, () => events.claim('stripe', id, lapsed)));
      expect(claims.filter(Boolean), 'after the lease').to.have.length(1);
      expect(await events.claim('stripe', id, at(t, PROVIDER_EVENT_LEASE_MS + 1)), 'within the new lease').to.equal(false);
      await events.complete('stripe', id, at(t, PROVIDER_EVENT_LEASE_MS + 2));
      expect(await events.claim('stripe', id, at(t, 3 * PROVIDER_EVENT_LEASE_MS))).to.equal(false);
    });

    it('gives a released claim again at once, and keeps a completed id when asked to release it', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
      await events.release('stripe', id);
      expect(await events.claim('stripe', id, at(t, 1))).to.equal(true);
      await events.complete('stripe', id, at(t, 2));
      await events.release('stripe', id);
      expect(await events.isCompleted('stripe', id)).to.equal(true);
      expect(await events.claim('stripe', id, at(t, 3))).to.equal(false);
    });

    it('says an unknown id is not completed, and releases an unknown id without harm', async () => {
      const events = await factory();
      const id = anEventId();
      expect(await events.isCompleted('stripe', id)).to.equal(false);
      await events.release('stripe', id);
      expect(await events.claim('stripe', id, at(t))).to.equal(true);
    });

    it('removes only events completed before the date, oldest first, at most `limit` at a time', async () => {
      const events = await factory();
      const year = '2001';
      const old = [anEventId(), anEventId(), anEventId()];
      for (const [i, id] of old.entries()) {
        await events.claim('stripe', id, at(`${year}-01-0${i + 1}T00:00:00Z`));
        await events.complete('stripe', id, at(`${year}-01-0${i + 1}T00:00:01Z`));
      }
      const unfinished = anEventId();
      await events.claim('stripe', unfinished, at(`${year}-01-01T00:00:00Z`));
      const recent = anEventId();
      await events.claim('stripe', recent, at(`${year}-06-01T00:00:00Z`));
      await events.complete('stripe', recent, at(`${year}-06-01T00:00:01Z`));
      const cutoff = at(`${year}-03-01T00:00:00Z`);

      expect(await events.removeBefore(cutoff, 2)).to.equal(2);
      expect(await events.isCompleted('stripe', old[0]!), 'the oldest went first').to.equal(false);
      expect(await events.isCompleted('stripe', old[1]!)).to.equal(false);
      expect(await events.isCompleted('stripe', old[2]!)).to.equal(true);
      expect(await events.removeBefore(cutoff, 2)).to.equal(1);
      expect(await events.removeBefore(cutoff, 2)).to.equal(0);
      expect(await events.isCompleted('stripe', recent), 'completed after the date').to.equal(true);
      expect(await events.claim('stripe', unfinished, at(`${year}-01-01T00:00:01Z`)), 'an unfinished claim stays').to.equal(false);
    });
  });
}
