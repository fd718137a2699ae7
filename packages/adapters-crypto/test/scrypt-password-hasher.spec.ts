import { describe, it } from 'mocha';
import { expect } from 'chai';
import { DomainError } from '@storefront/domain';
import { ScryptPasswordHasher } from '../src/scrypt-password-hasher.js';
import { rejectionOf } from './helpers.js';

const FAST = { logN: 10 } as const;

/** A stored hash with one byte changed. */
function flipByte(hash: string, index: number): string {
  const bytes = Buffer.from(hash, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  return bytes.toString('base64');
}

describe('ScryptPasswordHasher', () => {
  it('verifies a password against its own hash', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const hash = await hasher.hash('correct horse battery staple');
    expect(await hasher.verify(hash, 'correct horse battery staple')).to.equal(true);
  });

  it('rejects a wrong password', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const hash = await hasher.hash('alice-password');
    expect(await hasher.verify(hash, 'alice-passw0rd')).to.equal(false);
    expect(await hasher.verify(hash, '')).to.equal(false);
  });

  it('salts every hash', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    expect(await hasher.hash('same')).not.to.equal(await hasher.hash('same'));
  });

  it('stores the cost in the hash, so hashes of another cost still verify', async () => {
    const cheap = new ScryptPasswordHasher({ logN: 10, r: 4, p: 2 });
    const hash = await cheap.hash('secret-1');
    const bytes = Buffer.from(hash, 'base64');
    expect([bytes[7], bytes.readUInt32BE(8), bytes.readUInt32BE(12)]).to.deep.equal([10, 4, 2]);
    expect(await new ScryptPasswordHasher({ logN: 11 }).verify(hash, 'secret-1')).to.equal(true);
  });

  it('treats composed and decomposed Unicode passwords alike', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const hash = await hasher.hash('caf\u00e9-cr\u00e8me');
    expect(await hasher.verify(hash, 'cafe\u0301-cre\u0300me')).to.equal(true);
  });

  it('resolves false, never throws, for a malformed or tampered hash', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const hash = await hasher.hash('alice-password');
    const malformed = [
      '',
      'not a hash',
      hash.slice(0, -4),
      `${hash}AAAA`,
      Buffer.alloc(96).toString('base64'),
      flipByte(hash, 20), // salt: checksum no longer matches
      flipByte(hash, 70), // HMAC
      '$2b$10$abcdefghijklmnopqrstuv', // someone else's format
    ];
    for (const bad of malformed) expect(await hasher.verify(bad, 'alice-password'), bad).to.equal(false);
    expect(await hasher.verify(undefined as unknown as string, 'x')).to.equal(false);
    expect(await hasher.verify(hash, undefined as unknown as string)).to.equal(false);
  });

  it('refuses, without computing it, a hash that asks for an absurd cost', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const bytes = Buffer.from(await hasher.hash('x'), 'base64');
    bytes[7] = 30; // N = 2^30: 1 TiB with r = 8
    expect(await hasher.verify(bytes.toString('base64'), 'x')).to.equal(false);
    expect(hasher.stats.peakActive).to.equal(1);
  });

  it('never runs more operations at once than its cap; the others queue', async () => {
    const hasher = new ScryptPasswordHasher({ ...FAST, maxConcurrency: 2 });
    const hash = await hasher.hash('alice-password');
    const verifications = Array.from({ length: 8 }, (_, i) => hasher.verify(hash, i % 2 === 0 ? 'alice-password' : 'wrong'));
    expect(hasher.stats).to.include({ active: 2, queued: 6 });
    const results = await Promise.all(verifications);
    expect(results).to.deep.equal([true, false, true, false, true, false, true, false]);
    expect(hasher.stats).to.include({ active: 0, queued: 0, peakActive: 2, started: 9, refused: 0 });
  });

  it('caps concurrent operations at 4 by default', async () => {
    const hasher = new ScryptPasswordHasher(FAST);
    const hashes = Array.from({ length: 6 }, (_, i) => hasher.hash(`password-${i}`));
    expect(hasher.maxConcurrency).to.equal(4);
    expect(hasher.stats).to.include({ active: 4, queued: 2 });
    await Promise.all(hashes);
    expect(hasher.stats.peakActive).to.equal(4);
  });

  it('waits in a queue of at most 64 for at most 1 s by default', () => {
    const hasher = new ScryptPasswordHasher(FAST);
    expect([hasher.maxQueue, hasher.maxWaitMs]).to.deep.equal([64, 1000]);
  });

  it('refuses at once with service_unavailable and a retry-after, computing nothing, when the queue is full', async () => {
    const hasher = new ScryptPasswordHasher({ logN: 14, maxConcurrency: 1, maxQueue: 1 });
    const hash = await hasher.hash('alice-password');
    const running = hasher.verify(hash, 'alice-password');
    const waiting = hasher.verify(hash, 'alice-password');
    const refused = await rejectionOf(hasher.verify(hash, 'alice-password'));
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'service_unavailable', retryAfterSeconds: 1 });
    expect(await Promise.all([running, waiting])).to.deep.equal([true, true]);
    expect(hasher.stats).to.include({ started: 3, refused: 1 });
  });

  it('refuses with service_unavailable an operation that waited maxWaitMs for its turn', async () => {
    const hasher = new ScryptPasswordHasher({ logN: 16, maxConcurrency: 1, maxWaitMs: 1 });
    const running = hasher.hash('alice-password'); // some 100 ms and more: far beyond 1 ms
    const refused = await rejectionOf(hasher.hash('bob-password'));
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'service_unavailable', retryAfterSeconds: 1 });
    await running;
    expect(hasher.stats).to.include({ started: 1, refused: 1 });
  });

  it('never computes a hash whose caller gave up before its turn', async () => {
    const hasher = new ScryptPasswordHasher({ ...FAST, maxConcurrency: 1 });
    const hash = await hasher.hash('alice-password');
    const running = hasher.verify(hash, 'alice-password');
    const caller = new AbortController();
    const abandoned = hasher.verify(hash, 'alice-password', { signal: caller.signal });
    caller.abort();
    expect(await rejectionOf(abandoned)).to.be.instanceOf(DomainError).with.property('code', 'service_unavailable');
    expect(await rejectionOf(hasher.hash('x', { signal: caller.signal }))).to.be.instanceOf(DomainError);
    await running;
    expect(hasher.stats).to.include({ started: 2, abandoned: 2 });
  });

  it('asks for a re-hash of a hash of another cost, and of one that is not ours', async () => {
    const current = new ScryptPasswordHasher({ logN: 11 });
    expect(current.needsRehash(await current.hash('x'))).to.equal(false);
    expect(current.needsRehash(await new ScryptPasswordHasher({ logN: 10 }).hash('x'))).to.equal(true);
    expect(current.needsRehash(await new ScryptPasswordHasher({ logN: 11, r: 4 }).hash('x'))).to.equal(true);
    expect(current.needsRehash(await new ScryptPasswordHasher({ logN: 11, p: 2 }).hash('x'))).to.equal(true);
    expect(current.needsRehash('$2b$10$abcdefghijklmnopqrstuv')).to.equal(true);
  });

  it('refuses an invalid cost', () => {
    expect(() => new ScryptPasswordHasher({ logN: 0 })).to.throw(RangeError);
    expect(() => new ScryptPasswordHasher({ r: 1.5 })).to.throw(RangeError);
    expect(() => new ScryptPasswordHasher({ maxConcurrency: 0 })).to.throw(RangeError);
  });

  it('works at the default OWASP cost (logN 17, r 8, p 1)', async function () {
    this.timeout(30_000);
    const hasher = new ScryptPasswordHasher();
    expect(hasher.cost).to.deep.equal({ logN: 17, r: 8, p: 1 });
    const hash = await hasher.hash('alice-password');
    expect(Buffer.from(hash, 'base64')[7]).to.equal(17);
    expect(await hasher.verify(hash, 'alice-password')).to.equal(true);
  });
});
