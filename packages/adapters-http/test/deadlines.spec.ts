import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect } from 'chai';
import { describe, it } from 'mocha';
import { Deadlines } from '../src/deadlines.js';

const ALLOWANCE_MS = 20;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Deadlines whose expiries are recorded, with a promise for the n-th expiry (fails after 2 s). */
function recording<T>(allowanceMs = ALLOWANCE_MS) {
  const expired: { item: T; at: number }[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const deadlines = new Deadlines<T>(allowanceMs, (item) => {
    expired.push({ item, at: performance.now() });
    for (const waiter of waiters) if (expired.length >= waiter.count) waiter.resolve();
  });
  const expiries = (count: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (expired.length >= count) return resolve();
      const timer = setTimeout(() => reject(new Error(`only ${expired.length} of ${count} expiries within 2 s`)), 2_000);
      waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  return { deadlines, expired, expiries, items: () => expired.map((e) => e.item) };
}

describe('Deadlines', () => {
  it('expires an item still running after the allowance exactly once, and finish then says it was too late', async () => {
    const { deadlines, expiries, items } = recording<string>();
    const pending = deadlines.start('slow');
    expect(deadlines.size).to.equal(1);
    await expiries(1);
    await delay(ALLOWANCE_MS);
    expect(items()).to.deep.equal(['slow']);
    expect(deadlines.size).to.equal(0);
    expect(deadlines.finish(pending)).to.equal(false);
  });

  it('never expires an item finished in time, and finish is true only the first time', async () => {
    const { deadlines, items } = recording<string>();
    const pending = deadlines.start('quick');
    expect(deadlines.finish(pending)).to.equal(true);
    expect(deadlines.finish(pending)).to.equal(false);
    expect(deadlines.size).to.equal(0);
    await delay(2 * ALLOWANCE_MS);
    expect(items()).to.deep.equal([]);
  });

  it('expires items in the order they started', async () => {
    const { deadlines, expiries, items } = recording<number>();
    for (let i = 1; i <= 5; i++) deadlines.start(i);
    await expiries(5);
    expect(items()).to.deep.equal([1, 2, 3, 4, 5]);
  });

  it('still expires a later item on time, and not before, after the oldest one finished', async () => {
    const allowance = 30;
    const { deadlines, expired, expiries } = recording<string>(allowance);
    const first = deadlines.start('first');
    await delay(allowance / 2);
    const startedSecond = performance.now();
    deadlines.start('second');
    expect(deadlines.finish(first)).to.equal(true);
    await expiries(1);
    expect(expired.map((e) => e.item)).to.deep.equal(['second']);
    const waited = expired[0]!.at - startedSecond;
    expect(waited).to.be.at.least(allowance);
    expect(waited).to.be.below(allowance + 1_000);
  });

  it('keeps the other items when one in the middle or at the end finishes, and appends after them', async () => {
    const { deadlines, expiries, items } = recording<string>();
    const pending = ['a', 'b', 'c', 'd'].map((item) => deadlines.start(item));
    expect(deadlines.size).to.equal(4);
    expect(deadlines.finish(pending[1]!)).to.equal(true);
    expect(deadlines.size).to.equal(3);
    expect(deadlines.finish(pending[3]!)).to.equal(true);
    expect(deadlines.size).to.equal(2);
    deadlines.start('e');
    expect(deadlines.size).to.equal(3);
    await expiries(3);
    expect(items()).to.deep.equal(['a', 'c', 'e']);
    expect(deadlines.size).to.equal(0);
  });

  it('starts over with an empty list after every item finished', async () => {
    const { deadlines, expiries, items } = recording<string>();
    deadlines.finish(deadlines.start('gone'));
    deadlines.start('again');
    await expiries(1);
    expect(items()).to.deep.equal(['again']);
  });

  it('does not keep the process alive while an item is running', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const moduleUrl = pathToFileURL(path.resolve(here, '../src/deadlines.js')).href;
    const script =
      `import(${JSON.stringify(moduleUrl)}).then(({ Deadlines }) => {` +
      ` const d = new Deadlines(60000, () => console.log('expired'));` +
      ` d.start('request'); console.log('running', d.size); });`;
    const started = Date.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = execFile(process.execPath, ['-e', script], { timeout: 15_000 }, (error, out) => {
        if (error !== null && error.killed) reject(new Error('the process was still running after 15 s'));
        else resolve({ code: error === null ? 0 : (error.code as number | null), stdout: out });
      });
      child.stdin?.end();
    });
    expect(stdout.trim()).to.equal('running 1');
    expect(code).to.equal(0);
    expect(Date.now() - started).to.be.below(10_000);
  });
});
