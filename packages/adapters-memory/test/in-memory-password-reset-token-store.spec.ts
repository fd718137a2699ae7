import { describe, it } from 'mocha';
import { expect } from 'chai';
import { newId } from '@storefront/domain/adapter-kit';
import { FakeClock, randomHex } from '@storefront/testing';
import { InMemoryPasswordResetTokenStore } from '../src/index.js';

const MINUTE_MS = 60_000;

describe('InMemoryPasswordResetTokenStore', () => {
  it('holds no more than the live tokens and a bounded few expired ones, however many are saved', async () => {
    const clock = new FakeClock();
    const tokens = new InMemoryPasswordResetTokenStore({ clock });
    let largest = 0;
    // One request every 5 minutes, each token valid 30: at most 6 are live at any time.
    for (let i = 0; i < 2000; i++) {
      const createdAt = clock.now();
      await tokens.save({ tokenHash: randomHex(), customerId: newId('cus'), createdAt, expiresAt: new Date(createdAt.getTime() + 30 * MINUTE_MS) });
      largest = Math.max(largest, tokens.size);
      clock.advance(5 * MINUTE_MS);
    }
    expect(largest).to.be.at.most(6 + 64);
  });
});
