/**
 * Login timing stays equal after SCRYPT_LOG_N changes. A hash verifies at the cost it was made
 * with, so an account hashed before the change is cheaper (or dearer) to check than the dummy an
 * unknown email is checked against: its email could be told from an unknown one by timing. The
 * first successful login re-hashes it at the current cost, and from then on the two are alike.
 * Timing is compared as in login.spec.ts: medians of interleaved attempts, up to three rounds.
 */
import { ScryptPasswordHasher } from '@storefront/adapters-crypto';
import { aCustomer } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { resolve } from '../../src/binding.js';
import { TYPES } from '../../src/identifiers.js';
import { call, composeStorefront, median, type ComposedServer } from './support.js';

const ATTEMPTS = 60;

/** The log2 N a stored hash was made with (byte 7 of scrypt-kdf's key). */
function logNOf(passwordHash: string): number {
  return Buffer.from(passwordHash, 'base64')[7]!;
}

describe('Login cost after SCRYPT_LOG_N changes', function () {
  this.timeout(120_000);
  let server: ComposedServer;
  const dana = { email: 'dana-old-hash@example.com', password: 'dana-password' };
  const nobody = 'nobody-at-all@example.com';

  before(async () => {
    server = await composeStorefront({ SCRYPT_LOG_N: '12' });
    // Dana signed up when the cost was logN 10.
    const oldHash = await new ScryptPasswordHasher({ logN: 10 }).hash(dana.password);
    await resolve(server.container, TYPES.CustomerRepository).create(aCustomer({ email: dana.email, passwordHash: oldHash }));
  });
  after(() => server?.close());

  const stored = async (): Promise<string> => (await resolve(server.container, TYPES.CustomerRepository).findByEmail(dana.email))!.passwordHash;

  async function attempt(email: string): Promise<number> {
    const started = performance.now();
    const res = await call(server.url, '/api/auth/login', { json: { email, password: 'not-the-password' } });
    expect(res.status, res.text).to.equal(401);
    return performance.now() - started;
  }

  /** `ATTEMPTS` interleaved pairs: the medians of a wrong password for Dana and of an unknown email. */
  async function round(): Promise<{ known: number; unknown: number; gap: number; text: string }> {
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const pair = i % 2 === 0 ? [dana.email, nobody] : [nobody, dana.email];
      for (const email of pair) (email === dana.email ? known : unknown).push(await attempt(email));
    }
    const [k, u] = [median(known), median(unknown)];
    return { known: k, unknown: u, gap: Math.abs(k - u) / Math.max(k, u), text: `${k.toFixed(1)} vs ${u.toFixed(1)} ms` };
  }

  it('stores the hash at logN 12 after one successful login of an account hashed at logN 10', async () => {
    expect(logNOf(await stored())).to.equal(10);
    // Before: a wrong password for Dana costs a logN-10 hash, an unknown email a logN-12 one (4 times
    // as much). The measurement sees it, which is what makes the comparison after it mean something.
    for (let i = 0; i < 6; i += 1) await attempt(i % 2 === 0 ? dana.email : nobody);
    const before = await round();
    console.log(`      before the re-hash, median wrong password vs unknown email: ${before.text}`);
    expect(before.unknown, `an unknown email costs more than Dana's old hash (${before.text})`).to.be.greaterThan(before.known * 1.3);

    const res = await call(server.url, '/api/auth/login', { json: dana });
    expect(res.status, res.text).to.equal(200);
    expect(logNOf(await stored())).to.equal(12);
    expect((await call(server.url, '/api/auth/login', { json: dana })).status, 'the new hash verifies').to.equal(200);
  });

  it('then answers a wrong password for that account and an unknown email alike, medians within 10%', async () => {
    expect(logNOf(await stored())).to.equal(12);
    for (let i = 0; i < 6; i += 1) await attempt(i % 2 === 0 ? dana.email : nobody);
    // As in login.spec.ts: a busy neighbour can skew one round; a real difference shows in every one.
    const rounds: Awaited<ReturnType<typeof round>>[] = [];
    for (let r = 0; r < 3 && !rounds.some((x) => x.gap <= 0.1); r += 1) rounds.push(await round());
    const summary = rounds.map((x) => x.text).join('; ');
    console.log(`      after the re-hash, median wrong password vs unknown email: ${summary}`);
    expect(Math.min(...rounds.map((x) => x.gap)), `relative difference of the medians (${summary})`).to.be.at.most(0.1);
  });
});
