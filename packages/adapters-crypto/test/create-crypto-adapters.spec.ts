import { describe, it } from 'mocha';
import { expect } from 'chai';
import { createCryptoAdapters } from '../src/create-crypto-adapters.js';
import { generateSigningKey } from '../src/paseto-keys.js';
import { PasetoTokenService } from '../src/paseto-token-service.js';

describe('createCryptoAdapters', () => {
  it('builds a hasher with the given cost and cap and a token service with the given key', async () => {
    const signingKey = generateSigningKey();
    const { hasher, tokens } = createCryptoAdapters({ signingKey, scrypt: { logN: 10, maxConcurrency: 2 } });
    expect(hasher.cost.logN).to.equal(10);
    expect(hasher.maxConcurrency).to.equal(2);
    expect(await tokens.currentKeyId()).to.equal(await new PasetoTokenService(signingKey).currentKeyId());
    expect(await hasher.verify(await hasher.hash('alice-password'), 'alice-password')).to.equal(true);
  });

  it('signs with an ephemeral key when none is given', async () => {
    const { tokens } = createCryptoAdapters({ scrypt: { logN: 10 } });
    await tokens.ready();
    const token = await tokens.issue({ sub: 'cus_a', sid: 'ses_a' }, 60);
    expect(await tokens.verify(token)).to.include({ sub: 'cus_a', sid: 'ses_a' });
  });
});
