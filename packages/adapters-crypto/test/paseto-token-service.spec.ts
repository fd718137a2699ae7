import { describe, it } from 'mocha';
import { expect } from 'chai';
import { PasetoError, PublicProtocol } from 'paseto';
import * as v3 from 'paseto/v3/public';
import * as v4 from 'paseto/v4/public';
import { DomainError, type Clock, type DomainErrorCode } from '@storefront/domain';
import { generateSigningKey, isSecretPaserk, keyIdOf } from '../src/paseto-keys.js';
import { PasetoTokenService } from '../src/paseto-token-service.js';
import { rejectionOf } from './helpers.js';

const CLAIMS = { sub: 'cus_0123456789abcdefghjk', sid: 'ses_0123456789abcdefghjk' } as const;

class FakeClock implements Clock {
  constructor(public ms = Date.parse('2030-01-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.ms);
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

async function expectDomainError(promise: Promise<unknown>, code: DomainErrorCode): Promise<DomainError> {
  const error = await rejectionOf(promise);
  expect(error, String(error)).to.be.instanceOf(DomainError);
  expect((error as DomainError).code).to.equal(code);
  return error as DomainError;
}

/** Signs arbitrary claims with the raw library, for tokens our service would never issue. */
async function signRaw(paserk: string, claims: Record<string, string>, options: { kid?: string; nonExpiring?: boolean } = {}): Promise<string> {
  const protocol = new PublicProtocol(v4.ImportSecretKeyFactory, v4.SignFactory);
  const key = await protocol.ImportSecretKey(paserk as `k4.secret.${string}`);
  const footer = options.kid === undefined ? undefined : new TextEncoder().encode(JSON.stringify({ kid: options.kid }));
  return protocol.Sign(key, claims, {
    ...(footer === undefined ? {} : { footer }),
    ...(options.nonExpiring === true ? { nonExpiring: true } : { expiresIn: 900 }),
  });
}

function footerOf(token: string): string {
  return token.split('.')[3] ?? '';
}

describe('PasetoTokenService', () => {
  it('verifies the tokens it issues and returns sub, sid and exp', async () => {
    const clock = new FakeClock();
    const tokens = new PasetoTokenService(generateSigningKey(), { clock });
    const token = await tokens.issue(CLAIMS, 900);
    expect(token).to.match(/^v4\.public\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(await tokens.verify(token)).to.deep.equal({ ...CLAIMS, exp: clock.ms / 1000 + 900 });
  });

  it('issues a different token every time, even in the same second for the same session', async () => {
    const tokens = new PasetoTokenService(generateSigningKey(), { clock: new FakeClock() });
    const [first, second] = await Promise.all([tokens.issue(CLAIMS, 900), tokens.issue(CLAIMS, 900)]);
    expect(first).not.to.equal(second);
  });

  it('writes iat, exp and a random jti, and names its key in the footer', async () => {
    const key = generateSigningKey();
    const tokens = new PasetoTokenService(key);
    const token = await tokens.issue(CLAIMS, 60);
    const footer: unknown = JSON.parse(Buffer.from(footerOf(token), 'base64url').toString('utf8'));
    expect(footer).to.deep.equal({ kid: await tokens.currentKeyId() });
    expect(await tokens.currentKeyId()).to.equal(keyIdOf(await tokens.publicKey())).and.match(/^sf1\.[A-Za-z0-9_-]{22}$/);
    const body = Buffer.from(token.split('.')[2]!, 'base64url');
    const claims: unknown = JSON.parse(body.subarray(0, body.length - 64).toString('utf8'));
    expect(claims).to.have.all.keys('sub', 'sid', 'iat', 'exp', 'jti');
  });

  it('says token_expired once exp has passed (beyond a few seconds of tolerance)', async () => {
    const clock = new FakeClock();
    const tokens = new PasetoTokenService(generateSigningKey(), { clock });
    const token = await tokens.issue(CLAIMS, 900);
    clock.advance(900 + 3);
    await tokens.verify(token); // within the 5 s tolerance
    clock.advance(10);
    const error = await expectDomainError(tokens.verify(token), 'token_expired');
    expect(error.message).to.equal('The access token has expired.');
    expect(error.cause).to.be.instanceOf(PasetoError);
  });

  it('says invalid_token for a tampered token, keeping the library error only as the cause', async () => {
    const tokens = new PasetoTokenService(generateSigningKey());
    const token = await tokens.issue(CLAIMS, 900);
    const [v, purpose, payload, footer] = token.split('.') as [string, string, string, string];
    const i = 20;
    const tampered = `${v}.${purpose}.${payload.slice(0, i)}${payload[i] === 'A' ? 'B' : 'A'}${payload.slice(i + 1)}.${footer}`;
    const error = await expectDomainError(tokens.verify(tampered), 'invalid_token');
    expect(error.message).to.equal('The access token is invalid.');
    expect(error.cause).to.be.instanceOf(PasetoError);
  });

  it('says invalid_token when the footer is swapped (the footer is signed too)', async () => {
    const first = new PasetoTokenService(generateSigningKey());
    const second = new PasetoTokenService(generateSigningKey(), { verificationKeys: [await first.publicKey()] });
    const token = await second.issue(CLAIMS, 900);
    const otherFooter = footerOf(await first.issue(CLAIMS, 900));
    await expectDomainError(second.verify(`${token.slice(0, token.lastIndexOf('.'))}.${otherFooter}`), 'invalid_token');
  });

  it('says invalid_token for a token signed by another key, even one that claims our kid', async () => {
    const ours = generateSigningKey();
    const tokens = new PasetoTokenService(ours);
    const stranger = new PasetoTokenService(generateSigningKey());
    await expectDomainError(tokens.verify(await stranger.issue(CLAIMS, 900)), 'invalid_token');
    const forged = await signRaw(generateSigningKey(), { ...CLAIMS }, { kid: await tokens.currentKeyId() });
    await expectDomainError(tokens.verify(forged), 'invalid_token');
  });

  it('says invalid_token for other versions and purposes: v4.local, v3.public', async () => {
    const tokens = new PasetoTokenService(generateSigningKey());
    const token = await tokens.issue(CLAIMS, 900);
    await expectDomainError(tokens.verify(token.replace('v4.public.', 'v4.local.')), 'invalid_token');
    const local = `v4.local.${Buffer.alloc(100, 7).toString('base64url')}.${footerOf(token)}`;
    await expectDomainError(tokens.verify(local), 'invalid_token');

    const v3Protocol = new PublicProtocol(v3.GenerateKeyPairFactory, v3.SignFactory);
    const { secretKey } = await v3Protocol.GenerateKeyPair();
    const footer = new TextEncoder().encode(JSON.stringify({ kid: await tokens.currentKeyId() }));
    const v3Token = await v3Protocol.Sign(secretKey, { ...CLAIMS }, { footer });
    await expectDomainError(tokens.verify(v3Token), 'invalid_token');
    await expectDomainError(tokens.verify(v3Token.replace('v3.public.', 'v4.public.')), 'invalid_token');
  });

  it('says invalid_token for garbage', async () => {
    const tokens = new PasetoTokenService(generateSigningKey());
    const garbage = [
      '',
      'garbage',
      'v4.public.',
      'v4.public..',
      'v4.public.!!!.???',
      'v4.public.eyJzdWIiOiJ4In0',
      `v4.public.${'A'.repeat(200)}.${Buffer.from('not json').toString('base64url')}`,
      `v4.public.${'A'.repeat(200)}.${Buffer.from('{"kid":42}').toString('base64url')}`,
      `v4.public.${'A'.repeat(200)}.${Buffer.from('[]').toString('base64url')}`,
      `v4.public.${'A'.repeat(10_000)}`,
      'Bearer v4.public.abc',
    ];
    for (const token of garbage) await expectDomainError(tokens.verify(token), 'invalid_token');
    await expectDomainError(tokens.verify(undefined as unknown as string), 'invalid_token');
  });

  it('says invalid_token for a token with an unknown kid or no footer', async () => {
    const key = generateSigningKey();
    const tokens = new PasetoTokenService(key);
    await expectDomainError(tokens.verify(await signRaw(key, { ...CLAIMS }, { kid: 'sf1.unknown' })), 'invalid_token');
    await expectDomainError(tokens.verify(await signRaw(key, { ...CLAIMS })), 'invalid_token');
  });

  it('says invalid_token for a genuine token that lacks sub, sid or exp', async () => {
    const key = generateSigningKey();
    const tokens = new PasetoTokenService(key);
    const kid = await tokens.currentKeyId();
    await expectDomainError(tokens.verify(await signRaw(key, { sid: CLAIMS.sid }, { kid })), 'invalid_token');
    await expectDomainError(tokens.verify(await signRaw(key, { sub: CLAIMS.sub }, { kid })), 'invalid_token');
    await expectDomainError(tokens.verify(await signRaw(key, { ...CLAIMS, sid: '' }, { kid })), 'invalid_token');
    await expectDomainError(tokens.verify(await signRaw(key, { ...CLAIMS }, { kid, nonExpiring: true })), 'invalid_token');
  });

  it('keeps verifying tokens of a retired key listed among the verification keys', async () => {
    const oldKey = generateSigningKey();
    const before = new PasetoTokenService(oldKey);
    const token = await before.issue(CLAIMS, 900);
    const after = new PasetoTokenService(generateSigningKey(), { verificationKeys: [await before.publicKey()] });
    expect(await after.verify(token)).to.include(CLAIMS);
    const alsoBySecret = new PasetoTokenService(generateSigningKey(), { verificationKeys: [oldKey] });
    expect(await alsoBySecret.verify(token)).to.include(CLAIMS);
    expect(await after.currentKeyId()).not.to.equal(await before.currentKeyId());
  });

  it('rejects an invalid signing key at ready(), issue() and verify()', async () => {
    for (const bad of ['', 'k4.secret.short', 'k4.local.AAAA', `k4.secret.${'A'.repeat(86)}`]) {
      const tokens = new PasetoTokenService(bad);
      expect(await rejectionOf(tokens.ready()), bad).to.be.instanceOf(Error);
      expect(await rejectionOf(tokens.issue(CLAIMS, 900))).not.to.be.instanceOf(DomainError);
      expect(await rejectionOf(tokens.verify('v4.public.abc'))).not.to.be.instanceOf(DomainError);
    }
  });

  it('refuses to issue with a ttl that is not a positive integer', async () => {
    const tokens = new PasetoTokenService(generateSigningKey());
    expect(await rejectionOf(tokens.issue(CLAIMS, 0))).to.be.instanceOf(RangeError);
    expect(await rejectionOf(tokens.issue(CLAIMS, 1.5))).to.be.instanceOf(RangeError);
  });
});

describe('generateSigningKey', () => {
  it('returns a new PASERK k4.secret that the paseto library imports', async () => {
    const key = generateSigningKey();
    expect(isSecretPaserk(key)).to.equal(true);
    expect(generateSigningKey()).not.to.equal(key);
    const protocol = new PublicProtocol(v4.ImportSecretKeyFactory, v4.ExportSecretKeyFactory);
    const imported = await protocol.ImportSecretKey(key, { extractable: true });
    expect(await protocol.ExportSecretKey(imported)).to.equal(key);
  });
});
