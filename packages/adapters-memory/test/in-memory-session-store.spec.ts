import { describe, it } from 'mocha';
import { expect } from 'chai';
import { aSession, FakeClock, randomHex } from '@storefront/testing';
import { InMemorySessionStore } from '../src/index.js';

describe('InMemorySessionStore', () => {
  it('drops sessions whose refresh token has expired as new sessions are created', async () => {
    const clock = new FakeClock();
    const sessions = new InMemorySessionStore({ clock });
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const old = Array.from({ length: 1500 }, () => aSession({ expiresAt }));
    for (const session of old) await sessions.create(session);
    clock.advance(60_000);
    for (let i = 0; i < 1500; i++) await sessions.create(aSession());
    expect(sessions.size).to.be.below(3000);
    expect(await sessions.findById(old[old.length - 1]!.sessionId)).to.equal(null);
  });

  it('keeps only the most recent rotated hashes of a long-lived session', async () => {
    const sessions = new InMemorySessionStore({ maxPreviousTokenHashes: 3 });
    const session = aSession();
    await sessions.create(session);
    let current = session.refreshTokenHash;
    const rotated: string[] = [];
    for (let i = 0; i < 5; i++) {
      const next = randomHex();
      expect(await sessions.rotate(session.sessionId, current, next, session.expiresAt)).to.equal(true);
      rotated.push(current);
      current = next;
    }
    expect((await sessions.findById(session.sessionId))!.previousTokenHashes).to.deep.equal(rotated.slice(-3));
  });
});
