/**
 * Rotating the token signing key without logging everyone out: restart with a new TOKEN_SECRET_KEY
 * and the old one in TOKEN_VERIFY_KEYS, and tokens the old key signed keep working until they
 * expire (the rolling-deploy order of the steps: key-rotation.spec.ts). Tokens from an unknown key, of another purpose (v4.local) or version (v3, v2), or expired
 * are a 401 over HTTP.
 *
 * Sessions live in the store, so a "restart" here is a new container and HTTP server over the same
 * store (the memory adapters are shared between the two, as MongoDB would be).
 */
import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { PasetoTokenService } from '@storefront/adapters-crypto';
import { createMemoryAdapters, type MemoryAdapters } from '@storefront/adapters-memory';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { TYPES } from '../../src/identifiers.js';
import { memoryOnly } from '../mongo-mode.js';
import { startStorefront } from '../../src/server.js';
import { ConfigError } from '../../src/config.js';
import { decodeToken, newSigningKey, signToken, type TestSigningKey } from '../e2e/tokens.js';
import { ALICE, call, composeStorefront, expectJsonError, login, RELIABILITY_ENV, type ComposedServer, type RawResponse, type Tokens } from './support.js';

function le64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

/** PASETO's pre-authentication encoding. */
function pae(...pieces: Buffer[]): Buffer {
  return Buffer.concat([le64(pieces.length), ...pieces.flatMap((piece) => [le64(piece.length), piece])]);
}

function assemble(header: string, message: Buffer, signature: Buffer, footer: Buffer): string {
  return `${header}${Buffer.concat([message, signature]).toString('base64url')}${footer.length > 0 ? `.${footer.toString('base64url')}` : ''}`;
}

/** A genuine v2.public token (Ed25519, no implicit assertion) signed with `privateKey`. */
function signV2(privateKey: KeyObject, claims: Record<string, unknown>, footer: Buffer): string {
  const header = 'v2.public.';
  const message = Buffer.from(JSON.stringify(claims));
  return assemble(header, message, sign(null, pae(Buffer.from(header), message, footer), privateKey), footer);
}

/** A genuine v3.public token (ECDSA P-384, the compressed public key bound into the signature). */
function signV3(claims: Record<string, unknown>, footer: Buffer): string {
  const header = 'v3.public.';
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const jwk = publicKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y!, 'base64url');
  const compressed = Buffer.concat([Buffer.from([0x02 | (y[y.length - 1]! & 1)]), Buffer.from(jwk.x!, 'base64url')]);
  const message = Buffer.from(JSON.stringify(claims));
  const signature = sign('sha384', pae(compressed, Buffer.from(header), message, footer, Buffer.alloc(0)), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return assemble(header, message, signature, footer);
}

function privateKeyOf(paserk: string): KeyObject {
  const material = Buffer.from(paserk.slice('k4.secret.'.length), 'base64url');
  const d = material.subarray(0, 32).toString('base64url');
  const x = material.subarray(32).toString('base64url');
  return createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', d, x }, format: 'jwk' });
}

function expectInvalidToken(res: RawResponse, code: 'invalid_token' | 'token_expired', what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(401);
  expectJsonError(res, 401, code);
  expect(res.headers['www-authenticate'], what).to.equal('Bearer realm="storefront", error="invalid_token"');
}

describe('Rotating the token signing key', function () {
  memoryOnly(this, 'its "restart" is a second server on the same memory store; in mongo and postgres mode every server gets a database of its own');
  this.timeout(30_000);
  const oldKey: TestSigningKey = newSigningKey();
  const newKey: TestSigningKey = newSigningKey();
  /** The store both "processes" use, like a MongoDB outliving a restart. */
  let store: MemoryAdapters;
  let oldTokens: Tokens;
  let rotated: ComposedServer;

  /** A server on the shared store with `env`; seeds the demo data only the first time. */
  function serve(env: Record<string, string>, seed: boolean): Promise<ComposedServer> {
    return composeStorefront({ ...env, STOREFRONT_DEMO_DATA: String(seed) }, (container) => {
      container.rebind<MemoryAdapters>(TYPES.MemoryAdapters).toConstantValue(store);
    });
  }

  before(async () => {
    store = createMemoryAdapters();
    const before = await serve({ TOKEN_SECRET_KEY: oldKey.paserk }, true);
    try {
      oldTokens = await login(before.url, ALICE.email, ALICE.password);
      expect((await call(before.url, '/api/me', { token: oldTokens.access_token })).status).to.equal(200);
    } finally {
      await before.close();
    }
    rotated = await serve({ TOKEN_SECRET_KEY: newKey.paserk, TOKEN_VERIFY_KEYS: oldKey.paserk }, false);
  });
  after(() => rotated?.close());

  it('accepts a token signed with the old key after a restart with the new key and TOKEN_VERIFY_KEYS=old, and signs new tokens with the new key only', async () => {
    const me = await call(rotated.url, '/api/me', { token: oldTokens.access_token });
    expect(me.status, me.text).to.equal(200);
    expect(me.json.email).to.equal(ALICE.email);
    expect((await call(rotated.url, '/api/orders', { token: oldTokens.access_token })).status).to.equal(200);

    const fresh = await login(rotated.url, ALICE.email, ALICE.password);
    const refreshed = await call(rotated.url, '/api/auth/refresh', { json: { refresh_token: oldTokens.refresh_token } });
    expect(refreshed.status, refreshed.text).to.equal(200);
    const kid = (token: string) => JSON.parse(decodeToken(token).footer.toString('utf8')).kid as string;
    const newKid = await new PasetoTokenService(newKey.paserk).currentKeyId();
    expect(kid(fresh.access_token)).to.equal(newKid);
    expect(kid(refreshed.json.access_token)).to.equal(newKid);
    expect(kid(oldTokens.access_token)).not.to.equal(newKid);
  });

  it('accepts the old key given as its k4.public PASERK (also under TOKEN_PREVIOUS_KEYS, the old name), and refuses its tokens once it is dropped', async () => {
    const { access_token: token } = await login(rotated.url, ALICE.email, ALICE.password);
    const oldSigned = signToken(oldKey, { ...decodeToken(token).claims }, Buffer.from(JSON.stringify({ kid: await new PasetoTokenService(oldKey.paserk).currentKeyId() })));
    const oldPublic = await new PasetoTokenService(oldKey.paserk).publicKey();
    for (const variable of ['TOKEN_VERIFY_KEYS', 'TOKEN_PREVIOUS_KEYS']) {
      const withPublic = await serve({ TOKEN_SECRET_KEY: newKey.paserk, [variable]: ` ${oldPublic} ` }, false);
      try {
        expect((await call(withPublic.url, '/api/me', { token: oldSigned })).status, variable).to.equal(200);
      } finally {
        await withPublic.close();
      }
    }
    const dropped = await serve({ TOKEN_SECRET_KEY: newKey.paserk }, false);
    try {
      expectInvalidToken(await call(dropped.url, '/api/me', { token: oldSigned }), 'invalid_token', 'old key no longer listed');
      expect((await call(dropped.url, '/api/me', { token })).status, 'a token of the new key').to.equal(200);
    } finally {
      await dropped.close();
    }
  });

  it('answers 401 for a token signed by an unknown key, of purpose v4.local, of version v3 or v2, or expired', async () => {
    const { access_token: token } = await login(rotated.url, ALICE.email, ALICE.password);
    const { claims, footer } = decodeToken(token);
    const stranger = newSigningKey();
    const strangerKid = await new PasetoTokenService(stranger.paserk).currentKeyId();
    const nonce = createHash('sha256').update('nonce').digest();
    const cases: Record<string, string> = {
      'unknown key, its own kid': signToken(stranger, claims, Buffer.from(JSON.stringify({ kid: strangerKid }))),
      'unknown key, the kid of the signing key': signToken(stranger, claims, footer),
      'v4.local shaped, the kid of the signing key': `v4.local.${Buffer.concat([nonce, Buffer.from(JSON.stringify(claims)), nonce]).toString('base64url')}.${footer.toString('base64url')}`,
      'a v4.public token relabelled v4.local': token.replace(/^v4\.public\./, 'v4.local.'),
      'v3.public (P-384)': signV3(claims, footer),
      'v2.public signed with the current Ed25519 key': signV2(privateKeyOf(newKey.paserk), claims, footer),
      'v2.public signed with the previous key': signV2(privateKeyOf(oldKey.paserk), claims, Buffer.from(JSON.stringify({ kid: await new PasetoTokenService(oldKey.paserk).currentKeyId() }))),
    };
    for (const [what, forged] of Object.entries(cases)) {
      expectInvalidToken(await call(rotated.url, '/api/me', { token: forged }), 'invalid_token', what);
      expectInvalidToken(await call(rotated.url, '/api/products', { token: forged }), 'invalid_token', `${what}, on a public endpoint`);
    }

    const past = { ...claims, iat: new Date(Date.now() - 3_600_000).toISOString(), exp: new Date(Date.now() - 600_000).toISOString() };
    const oldKid = Buffer.from(JSON.stringify({ kid: await new PasetoTokenService(oldKey.paserk).currentKeyId() }));
    expectInvalidToken(await call(rotated.url, '/api/me', { token: signToken(newKey, past, footer) }), 'token_expired', 'expired, current key');
    expectInvalidToken(await call(rotated.url, '/api/me', { token: signToken(oldKey, past, oldKid) }), 'token_expired', 'expired, previous key');
    expect((await call(rotated.url, '/api/me', { token })).status, 'the genuine token still works').to.equal(200);
  });

  it('refuses to start with a TOKEN_VERIFY_KEYS entry that is not a k4.public or k4.secret PASERK, naming the variable', async () => {
    let error: unknown;
    try {
      const server = await startStorefront({ ...RELIABILITY_ENV, TOKEN_SECRET_KEY: newKey.paserk, TOKEN_VERIFY_KEYS: `${oldKey.paserk},k4.local.AAAA` });
      await server.close();
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.variable)).to.deep.equal(['TOKEN_VERIFY_KEYS']);
    expect((error as ConfigError).message).not.to.include(oldKey.paserk.slice(10));
  });
});
