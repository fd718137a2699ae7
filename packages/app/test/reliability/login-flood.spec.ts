/**
 * A flood of logins cannot keep a genuine one out, nor make requests wait for a hash they will
 * never get: beyond SCRYPT_MAX_QUEUE waiters a login is answered 503 at once, a waiter not served
 * within SCRYPT_MAX_WAIT_MS is answered 503, both with Retry-After; and a login whose request was
 * answered, or whose client left, never hashes. Real server, real scrypt, real sockets; the login
 * limiter is opened wide (RELIABILITY_ENV) so that only the hasher's bounds are at work.
 *
 * Every bound below is generous (a loaded 2-core machine can run several times slower than a quiet
 * one): the claims are "answered, and long before the 10 s request time-out", not exact timings.
 */
import type { ScryptPasswordHasher } from '@storefront/adapters-crypto';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { resolve } from '../../src/binding.js';
import { TYPES } from '../../src/identifiers.js';
import { call, composeStorefront, errorShapeProblem, newCustomer, sleep, type ComposedServer, type RawResponse } from './support.js';

const FLOOD = 300;
/** The request time-out of the HTTP layer (http-module.ts). */
const REQUEST_TIMEOUT_MS = 10_000;
/** What the issue asks of a genuine login made during a flood. */
const GENUINE_WITHIN_MS = 3_000;

/**
 * The bound on the genuine login during a flood, for this machine now. Its wait for a permit is
 * bounded by SCRYPT_MAX_WAIT_MS; its hash takes what one hash takes beside the others running, which
 * the fastest flood login that was hashed (401) measures, at the same time and load. At logN 14 that
 * is a few ms and 3 s holds; at logN 17 on a loaded 2-core machine one hash alone can take over a
 * second, so the bound grows with what was measured (twice it, for the scheduler) rather than fail.
 */
function genuineBoundMs(answers: readonly Answer[], maxWaitMs: number): number {
  const hashed = answers.filter((res) => res.status === 401).map((res) => res.ms);
  const oneHashMs = hashed.length === 0 ? 0 : Math.min(...hashed);
  return Math.max(GENUINE_WITHIN_MS, maxWaitMs + 2 * oneHashMs + 500);
}

type Answer = RawResponse & { json: any };

function unknownEmailLogin(server: ComposedServer, i: number): Promise<Answer> {
  return call(server.url, '/api/auth/login', { json: { email: `flood-${i}@example.com`, password: 'not-a-password' }, timeoutMs: 30_000 });
}

/** Resolves once nothing runs or waits in the hasher any more. */
async function settled(hasher: ScryptPasswordHasher): Promise<void> {
  for (let i = 0; i < 600 && (hasher.stats.active > 0 || hasher.stats.queued > 0); i += 1) await sleep(50);
  expect(hasher.stats).to.include({ active: 0, queued: 0 });
}

/** A 503 of the hasher's bounds (not of the request time-out), well formed, with Retry-After. */
function expectBusy(res: Answer, what: string): void {
  expect(res.status, `${what}: ${res.text}`).to.equal(503);
  expect(errorShapeProblem(res), what).to.equal(null);
  expect(res.json.error, what).to.equal('service_unavailable');
  expect(res.json.message, what).to.match(/password checks are waiting/);
  expect(res.headers['retry-after'], what).to.equal('1');
}

function counts(answers: readonly Answer[]): Record<number, number> {
  const byStatus: Record<number, number> = {};
  for (const res of answers) byStatus[res.status] = (byStatus[res.status] ?? 0) + 1;
  return byStatus;
}

for (const cost of [
  { name: 'logN 14, one hash at a time', env: { SCRYPT_LOG_N: '14', SCRYPT_MAX_CONCURRENCY: '1' } },
  { name: 'the default cost and concurrency (logN 17, 4 at once)', env: { SCRYPT_LOG_N: '17', SCRYPT_MAX_CONCURRENCY: '4' } },
]) {
  describe(`A flood of ${FLOOD} logins at ${cost.name}, with the default SCRYPT_MAX_QUEUE and SCRYPT_MAX_WAIT_MS`, function () {
    this.timeout(90_000);
    let server: ComposedServer;
    let hasher: ScryptPasswordHasher;

    before(async () => {
      // Blank = the default (64 waiting, 1 s), whatever RELIABILITY_ENV says.
      server = await composeStorefront({ ...cost.env, SCRYPT_MAX_QUEUE: '', SCRYPT_MAX_WAIT_MS: '' });
      hasher = resolve(server.container, TYPES.CryptoAdapters).hasher;
      expect([hasher.maxQueue, hasher.maxWaitMs]).to.deep.equal([64, 1000]);
    });
    after(() => server?.close());

    it('answers every login long before the request time-out, a genuine one made during it within 3 s, and hashes for no request already answered', async () => {
      const genuine = await newCustomer(server, 'genuine');
      await settled(hasher);
      const before = hasher.stats;

      const flood = Array.from({ length: FLOOD }, (_, i) => unknownEmailLogin(server, i));
      // The genuine login arrives once the hasher is saturated: a queue has formed or logins are refused.
      for (let i = 0; i < 400 && hasher.stats.queued === 0 && hasher.stats.refused === before.refused; i += 1) await sleep(5);
      expect(hasher.stats.queued > 0 || hasher.stats.refused > before.refused, 'the flood saturates the hasher').to.equal(true);
      const started = performance.now();
      const mine = await call(server.url, '/api/auth/login', { json: { email: genuine.email, password: genuine.password }, timeoutMs: 30_000 });
      const genuineMs = performance.now() - started;
      const answers = await Promise.all(flood);
      await settled(hasher);

      const slowest = Math.max(...answers.map((res) => res.ms));
      console.log(`      flood: ${JSON.stringify(counts(answers))}, slowest ${Math.round(slowest)} ms; genuine login: ${mine.status} in ${Math.round(genuineMs)} ms`);

      // The genuine login: in, or told to come back, within 3 s on a machine that hashes fast enough
      // (genuineBoundMs). Both are right by design (the issue's own words): whether it finds a free
      // permit within SCRYPT_MAX_WAIT_MS depends on the machine.
      expect(genuineMs, 'ms to answer the genuine login').to.be.below(genuineBoundMs(answers, hasher.maxWaitMs));
      if (mine.status === 503) expectBusy(mine, 'genuine login');
      else expect(mine.status, mine.text).to.equal(200);

      // Every flood login: a 401 after its hash, or the hasher's 503; none waits for the request time-out.
      // Which logins get a permit is a race the bounds leave open; the counts below tie the two together.
      for (const [i, res] of answers.entries()) {
        if (res.status === 503) expectBusy(res, `flood login ${i}`);
        else expect(res.status, `flood login ${i}: ${res.text}`).to.equal(401);
      }
      // None waits for the request time-out (a 408 or its 503 would also fail the status checks above).
      expect(slowest, 'ms of the slowest flood login').to.be.below(REQUEST_TIMEOUT_MS);
      const refusedAnswers = answers.filter((res) => res.status === 503).length;
      expect(refusedAnswers, 'logins refused').to.be.greaterThan(0);

      // Hashes: exactly one per login that was answered by its hash (the 401s, and the genuine login
      // if it got in); none for a request answered 503.
      const after = hasher.stats;
      const hashedAnswers = answers.filter((res) => res.status === 401).length + (mine.status === 200 ? 1 : 0);
      expect(after.started - before.started, 'hashes started').to.equal(hashedAnswers);
      expect(after.refused + after.abandoned - (before.refused + before.abandoned), 'hashes refused').to.equal(refusedAnswers + (mine.status === 503 ? 1 : 0));
    });
  });
}

describe('A flood of 90 wrong-password logins from 9 addresses (logN 15, 4 at once, the default queue of 64 and wait of 1 s)', function () {
  this.timeout(90_000);
  let server: ComposedServer;
  let hasher: ScryptPasswordHasher;

  before(async () => {
    server = await composeStorefront({ SCRYPT_LOG_N: '15', SCRYPT_MAX_CONCURRENCY: '4', SCRYPT_MAX_QUEUE: '', SCRYPT_MAX_WAIT_MS: '' });
    hasher = resolve(server.container, TYPES.CryptoAdapters).hasher;
  });
  after(() => server?.close());

  it('hashes a genuine login sent 300 ms later from a 10th address in turn (200), while the flood is shed', async () => {
    const victim = await newCustomer(server, 'victim');
    const genuine = await newCustomer(server, 'genuine');
    await settled(hasher);
    const before = hasher.stats;
    // 10 logins from each of 9 addresses, all at once: each address within its login limit.
    const flood = Array.from({ length: 90 }, (_, i) =>
      call(server.url, '/api/auth/login', { json: { email: victim.email, password: 'wrong-password' }, localAddress: `127.0.0.${110 + (i % 9)}`, timeoutMs: 30_000 }),
    );
    await sleep(300);
    const queuedThen = hasher.stats.queued;
    const started = performance.now();
    const mine = await call(server.url, '/api/auth/login', { json: { email: genuine.email, password: genuine.password }, localAddress: '127.0.0.130', timeoutMs: 30_000 });
    const genuineMs = performance.now() - started;
    const answers = await Promise.all(flood);
    await settled(hasher);
    console.log(
      `      flood: ${JSON.stringify(counts(answers))}, ${queuedThen} waiting when the genuine login came; genuine login: ${mine.status} in ${Math.round(genuineMs)} ms; hashes started: ${hasher.stats.started - before.started}`,
    );
    expect(queuedThen, 'the flood is waiting for the hasher').to.be.at.least(9);
    expect(mine.status, mine.text).to.equal(200);
    expect(genuineMs, 'ms to answer the genuine login').to.be.below(GENUINE_WITHIN_MS);
    for (const [i, res] of answers.entries()) {
      if (res.status === 503) expectBusy(res, `flood login ${i}`);
      else expect(res.status, `flood login ${i}: ${res.text}`).to.equal(401);
    }
    expect(counts(answers)[503] ?? 0, 'flood logins shed').to.be.greaterThan(0);
  });
});

describe('Logins whose clients give up while they wait for a hash', function () {
  this.timeout(90_000);
  let server: ComposedServer;
  let hasher: ScryptPasswordHasher;

  before(async () => {
    // A long wait allowed, so that only the departure of the client can take a waiter out of the queue.
    server = await composeStorefront({ SCRYPT_LOG_N: '15', SCRYPT_MAX_CONCURRENCY: '1', SCRYPT_MAX_QUEUE: '1000', SCRYPT_MAX_WAIT_MS: '10000' });
    hasher = resolve(server.container, TYPES.CryptoAdapters).hasher;
  });
  after(() => server?.close());

  it('never hashes for a client that closed its connection before its turn', async () => {
    const before = hasher.stats;
    const patient = Array.from({ length: 3 }, (_, i) => unknownEmailLogin(server, i));
    // 40 impatient clients: each gives up after 200 ms, long before 40 hashes of ~0.1 s can be done.
    const impatient = Array.from({ length: 40 }, (_, i) =>
      call(server.url, '/api/auth/login', { json: { email: `impatient-${i}@example.com`, password: 'not-a-password' }, timeoutMs: 200 }).then(
        (res) => `answered ${res.status}`,
        () => 'gave up',
      ),
    );
    const outcomes = await Promise.all(impatient);
    const patientAnswers = await Promise.all(patient);
    await settled(hasher);

    expect(patientAnswers.map((res) => res.status)).to.deep.equal([401, 401, 401]);
    const gaveUp = outcomes.filter((outcome) => outcome === 'gave up').length;
    const answered = outcomes.length - gaveUp;
    console.log(`      ${gaveUp} of 40 clients gave up; hashes started: ${hasher.stats.started - before.started}, abandoned: ${hasher.stats.abandoned - before.abandoned}`);
    expect(gaveUp, 'clients that gave up').to.be.greaterThan(20);
    // Each hash started was for a login still waited for, except those already running when their
    // client left (at most one at a time here: SCRYPT_MAX_CONCURRENCY=1).
    const started = hasher.stats.started - before.started;
    expect(started, 'hashes started').to.be.at.most(patient.length + answered + 1);
    expect(hasher.stats.abandoned - before.abandoned, 'waiters dropped when their client left').to.be.at.least(gaveUp - 1);
  });
});
