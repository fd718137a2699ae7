/** What every SessionStore must do. Each test uses fresh session ids. */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { SessionStore } from '@storefront/domain';
import { newId } from '@storefront/domain/adapter-kit';
import { aSession, randomHex } from '../builders.js';

const DAY_MS = 24 * 3600 * 1000;

export function describeSessionStoreContract(name: string, factory: () => Promise<SessionStore>): void {
  describe(`${name} (SessionStore contract)`, () => {
    it('finds a created session by id', async () => {
      const sessions = await factory();
      const session = aSession({ previousTokenHashes: [randomHex()] });
      await sessions.create(session);
      expect(await sessions.findById(session.sessionId)).to.deep.equal(session);
    });

    it('returns null for an unknown session', async () => {
      const sessions = await factory();
      expect(await sessions.findById(aSession().sessionId)).to.equal(null);
    });

    it('rotates the refresh token once and keeps the old hash for reuse detection', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const next = randomHex();
      const expiresAt = new Date(session.expiresAt.getTime() + DAY_MS);
      expect(await sessions.rotate(session.sessionId, session.refreshTokenHash, next, expiresAt)).to.equal(true);
      const rotated = await sessions.findById(session.sessionId);
      expect(rotated!.refreshTokenHash).to.equal(next);
      expect(rotated!.previousTokenHashes).to.include(session.refreshTokenHash);
      expect(rotated!.expiresAt.getTime()).to.equal(expiresAt.getTime());
      expect(rotated!.revokedAt).to.equal(null);
    });

    it('refuses a rotation from a stale hash and leaves the session as it was', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const winner = randomHex();
      expect(await sessions.rotate(session.sessionId, session.refreshTokenHash, winner, session.expiresAt)).to.equal(true);
      expect(await sessions.rotate(session.sessionId, session.refreshTokenHash, randomHex(), session.expiresAt)).to.equal(false);
      expect((await sessions.findById(session.sessionId))!.refreshTokenHash).to.equal(winner);
    });

    it('lets exactly one of many concurrent rotations of the same hash win', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const nexts = Array.from({ length: 20 }, () => randomHex());
      const results = await Promise.all(
        nexts.map((next) => sessions.rotate(session.sessionId, session.refreshTokenHash, next, session.expiresAt)),
      );
      expect(results.filter((won) => won)).to.have.length(1);
      const current = (await sessions.findById(session.sessionId))!.refreshTokenHash;
      expect(current).to.equal(nexts[results.indexOf(true)]);
    });

    it('refuses to rotate an unknown or revoked session', async () => {
      const sessions = await factory();
      const unknown = aSession();
      expect(await sessions.rotate(unknown.sessionId, unknown.refreshTokenHash, randomHex(), unknown.expiresAt)).to.equal(false);
      const session = aSession();
      await sessions.create(session);
      await sessions.revoke(session.sessionId, new Date());
      expect(await sessions.rotate(session.sessionId, session.refreshTokenHash, randomHex(), session.expiresAt)).to.equal(false);
    });

    it('revokes a session, and revoking again keeps the first revocation time', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const first = new Date(Date.now() - 1000);
      await sessions.revoke(session.sessionId, first);
      expect((await sessions.findById(session.sessionId))!.revokedAt!.getTime()).to.equal(first.getTime());
      await sessions.revoke(session.sessionId, new Date());
      const revoked = await sessions.findById(session.sessionId);
      expect(revoked!.revokedAt!.getTime()).to.equal(first.getTime());
      expect(revoked!.refreshTokenHash).to.equal(session.refreshTokenHash);
    });

    it('accepts revoking an unknown session', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.revoke(session.sessionId, new Date());
      expect(await sessions.findById(session.sessionId)).to.equal(null);
    });

    it("revokes every live session of a customer at once, keeping an earlier revocation time and other customers' sessions", async () => {
      const sessions = await factory();
      const customerId = newId('cus');
      const live = [aSession({ customerId }), aSession({ customerId }), aSession({ customerId })];
      const alreadyRevoked = aSession({ customerId });
      const someoneElse = aSession();
      for (const session of [...live, alreadyRevoked, someoneElse]) await sessions.create(session);
      const earlier = new Date(Date.now() - 60_000);
      await sessions.revoke(alreadyRevoked.sessionId, earlier);

      const at = new Date(Date.now() - 1000);
      await sessions.revokeAllOf(customerId, at);
      for (const session of live) expect((await sessions.findById(session.sessionId))!.revokedAt!.getTime()).to.equal(at.getTime());
      expect((await sessions.findById(alreadyRevoked.sessionId))!.revokedAt!.getTime()).to.equal(earlier.getTime());
      expect(await sessions.findById(someoneElse.sessionId)).to.deep.equal(someoneElse);
      expect(await sessions.rotate(live[0]!.sessionId, live[0]!.refreshTokenHash, randomHex(), live[0]!.expiresAt)).to.equal(false);
    });

    it('revokes all of a customer again without changing the first revocation time, and accepts an unknown customer', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const first = new Date(Date.now() - 1000);
      await sessions.revokeAllOf(session.customerId, first);
      await sessions.revokeAllOf(session.customerId, new Date());
      expect((await sessions.findById(session.sessionId))!.revokedAt!.getTime()).to.equal(first.getTime());
      await sessions.revokeAllOf(newId('cus'), new Date());
    });

    it('is not changed by edits to the object it was given', async () => {
      const sessions = await factory();
      const session = aSession();
      await sessions.create(session);
      const expiresAt = session.expiresAt.getTime();
      (session.previousTokenHashes as string[]).push('tampered');
      session.expiresAt.setTime(0);
      const found = await sessions.findById(session.sessionId);
      expect(found!.previousTokenHashes).to.deep.equal([]);
      expect(found!.expiresAt.getTime()).to.equal(expiresAt);
    });
  });
}
