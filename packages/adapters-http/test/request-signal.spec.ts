/**
 * A login's password hash is told when nobody waits for its answer any more: the request was
 * answered by its time allowance, or the client left. The hasher here parks every verification
 * (so that the request is still waiting for its hash when that happens) and keeps the signal it
 * was handed; the real hasher's handling of a fired signal is tested in adapters-crypto.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import { createMemoryAdapters } from '@storefront/adapters-memory';
import { createStorefront, type PasswordHasher } from '@storefront/domain';
import { type AbortSignalLike, type HashOptions } from '@storefront/domain/adapter-kit';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import { createHttpApp } from '../src/index.js';

/** The real hasher, recording the signal of each verification; `park` holds verifications for good. */
class RecordingHasher implements PasswordHasher {
  readonly signals: (AbortSignalLike | undefined)[] = [];
  private readonly real = createCryptoAdapters({ scrypt: { logN: 10 } }).hasher;
  private arrived: () => void = () => undefined;

  constructor(private readonly park: boolean) {}

  /** Resolves when the next verification has been asked for. */
  nextVerify(): Promise<void> {
    return new Promise((resolve) => (this.arrived = resolve));
  }

  hash(password: string): Promise<string> {
    return this.real.hash(password);
  }

  verify(hash: string, password: string, options: HashOptions = {}): Promise<boolean> {
    this.signals.push(options.signal);
    this.arrived();
    // Parked: the request is answered without it, as one waiting for a busy hasher would be.
    return this.park ? new Promise(() => undefined) : this.real.verify(hash, password, options);
  }

  needsRehash(hash: string): boolean {
    return this.real.needsRehash(hash);
  }
}

function aborted(signal: AbortSignalLike | undefined): Promise<boolean> {
  if (signal === undefined) return Promise.resolve(false);
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(true));
    setTimeout(() => resolve(signal.aborted), 5_000).unref();
  });
}

describe('the signal a login hands to the password hasher', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve())));
    server = undefined;
  });

  async function serve(hasher: PasswordHasher, requestTimeoutMs: number): Promise<number> {
    const storefront = createStorefront({ ...createMemoryAdapters(), ...createCryptoAdapters({ scrypt: { logN: 10 } }), hasher });
    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    server = http.createServer(createHttpApp({ storefront, logger, accessLog: () => undefined, options: { requestTimeoutMs } }).listener);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function login(port: number): { request: http.ClientRequest; answer: Promise<number> } {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'whatever-password' });
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/auth/login',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const answer = new Promise<number>((resolve, reject) => {
      request.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      request.on('error', reject);
    });
    request.end(body);
    return { request, answer };
  }

  it('fires when the request is answered 503 by its time allowance while the hash still waits', async () => {
    const hasher = new RecordingHasher(true);
    const port = await serve(hasher, 150);
    const verifying = hasher.nextVerify();
    const { answer } = login(port);
    await verifying;
    expect(hasher.signals[0]?.aborted, 'not before the answer').to.equal(false);
    expect(await answer).to.equal(503);
    expect(await aborted(hasher.signals[0])).to.equal(true);
  });

  it('fires when the client closes the connection before its answer', async () => {
    const hasher = new RecordingHasher(true);
    const port = await serve(hasher, 10_000);
    const verifying = hasher.nextVerify();
    const { request, answer } = login(port);
    answer.catch(() => undefined);
    await verifying;
    expect(hasher.signals[0]?.aborted).to.equal(false);
    request.destroy();
    expect(await aborted(hasher.signals[0])).to.equal(true);
  });

  it('does not fire for a login answered in time', async () => {
    const hasher = new RecordingHasher(false);
    const port = await serve(hasher, 10_000);
    expect(await login(port).answer).to.equal(401);
    await new Promise((resolve) => setImmediate(resolve));
    expect(hasher.signals).to.have.length(1);
    expect(hasher.signals[0]?.aborted).to.equal(false);
  });
});
