/**
 * What every PasswordResetTokenStore must do. Each test uses fresh hashes and customer ids; times
 * are "now" plus or minus minutes, so that a store which also expires by the wall clock (a TTL
 * index, a sweep) agrees with the `now` the test passes.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import type { PasswordResetTokenStore } from '@storefront/domain';
import type { PasswordResetToken } from '@storefront/domain/adapter-kit';
import { newId } from '@storefront/domain/adapter-kit';
import { randomHex } from '../builders.js';

const MINUTE_MS = 60_000;

/** A token made now, valid 30 minutes. */
function aToken(overrides: Partial<PasswordResetToken> = {}): PasswordResetToken {
  const now = Date.now();
  return {
    tokenHash: randomHex(),
    customerId: newId('cus'),
    createdAt: new Date(now),
    expiresAt: new Date(now + 30 * MINUTE_MS),
    ...overrides,
  };
}

const at = (token: PasswordResetToken, minutesAfterCreation: number): Date =>
  new Date(token.createdAt.getTime() + minutesAfterCreation * MINUTE_MS);

export function describePasswordResetTokenStoreContract(name: string, factory: () => Promise<PasswordResetTokenStore>): void {
  describe(`${name} (PasswordResetTokenStore contract)`, () => {
    it('finds a saved token by its hash without spending it', async () => {
      const tokens = await factory();
      const token = aToken();
      await tokens.save(token);
      expect(await tokens.find(token.tokenHash, at(token, 1))).to.deep.equal(token);
      expect(await tokens.find(token.tokenHash, at(token, 2))).to.deep.equal(token);
    });

    it('finds nothing for an unknown hash, or once the token has expired', async () => {
      const tokens = await factory();
      const token = aToken();
      await tokens.save(token);
      expect(await tokens.find(randomHex(), at(token, 1))).to.equal(null);
      expect(await tokens.find(token.tokenHash, token.expiresAt)).to.equal(null);
      expect(await tokens.find(token.tokenHash, at(token, 31))).to.equal(null);
    });

    it('gives a token to the first consume only', async () => {
      const tokens = await factory();
      const token = aToken();
      await tokens.save(token);
      expect(await tokens.consume(token.tokenHash, at(token, 1))).to.deep.equal(token);
      expect(await tokens.consume(token.tokenHash, at(token, 1))).to.equal(null);
      expect(await tokens.find(token.tokenHash, at(token, 1))).to.equal(null);
    });

    it('gives a token to exactly one of 20 concurrent consumes', async () => {
      const tokens = await factory();
      const token = aToken();
      await tokens.save(token);
      const results = await Promise.all(Array.from({ length: 20 }, () => tokens.consume(token.tokenHash, at(token, 1))));
      expect(results.filter((result) => result !== null)).to.deep.equal([token]);
    });

    it('refuses to consume an expired or unknown token', async () => {
      const tokens = await factory();
      const token = aToken();
      await tokens.save(token);
      expect(await tokens.consume(token.tokenHash, at(token, 31))).to.equal(null);
      expect(await tokens.consume(randomHex(), at(token, 1))).to.equal(null);
    });

    it("deletes every token of one customer and only that customer's", async () => {
      const tokens = await factory();
      const customerId = newId('cus');
      const mine = [aToken({ customerId }), aToken({ customerId })];
      const theirs = aToken();
      for (const token of [...mine, theirs]) await tokens.save(token);
      await tokens.deleteAllOf(customerId);
      for (const token of mine) expect(await tokens.find(token.tokenHash, at(token, 1))).to.equal(null);
      expect(await tokens.find(theirs.tokenHash, at(theirs, 1))).to.deep.equal(theirs);
      await tokens.deleteAllOf(customerId);
      await tokens.deleteAllOf(newId('cus'));
    });

    it('is not changed by edits to the object it was given or handed', async () => {
      const tokens = await factory();
      const token = aToken();
      const expiresAt = token.expiresAt.getTime();
      await tokens.save(token);
      token.expiresAt.setTime(0);
      const found = await tokens.find(token.tokenHash, new Date(expiresAt - MINUTE_MS));
      expect(found!.expiresAt.getTime()).to.equal(expiresAt);
      found!.expiresAt.setTime(0);
      expect((await tokens.find(token.tokenHash, new Date(expiresAt - MINUTE_MS)))!.expiresAt.getTime()).to.equal(expiresAt);
    });
  });
}
