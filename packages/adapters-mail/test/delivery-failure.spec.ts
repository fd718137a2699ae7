import { expect } from 'chai';
import { describe, it } from 'mocha';
import { isTransientFailure } from '../src/index.js';
import { backoffDelay, DEFAULT_RETRY_POLICY } from '../src/retry-policy.js';

describe('isTransientFailure', () => {
  const error = (fields: object) => Object.assign(new Error('failed'), fields);

  it('retries 4xx replies and 503, not the other 5xx replies', () => {
    const transient = (responseCode: number) => isTransientFailure(error({ code: 'EENVELOPE', responseCode }));
    expect([421, 450, 451, 452, 454, 503].filter((code) => !transient(code))).to.deep.equal([]);
    expect([535, 550, 552, 553, 554].filter(transient)).to.deep.equal([]);
  });

  it("follows nodemailer's permanent flag when it is set", () => {
    expect(isTransientFailure(error({ responseCode: 550, permanent: false }))).to.equal(true);
    expect(isTransientFailure(error({ responseCode: 451, permanent: true }))).to.equal(false);
  });

  it('retries a lost connection, a timeout, a refused socket, a DNS failure; not a bad envelope or login', () => {
    const transient = (code: string | undefined) => isTransientFailure(error({ code }));
    expect(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET'].filter((code) => !transient(code))).to.deep.equal([]);
    expect(['EENVELOPE', 'EAUTH', 'ENOAUTH', 'EMESSAGE', 'ETLS', undefined].filter(transient)).to.deep.equal([]);
  });
});

describe('backoffDelay', () => {
  it('doubles a step from the base up to the cap, keeping at least half of it', () => {
    const delay = (attempt: number, random: number) => backoffDelay(DEFAULT_RETRY_POLICY, attempt, () => random);
    const bounds = [1, 2, 3, 4, 5].map((attempt) => [delay(attempt, 0), delay(attempt, 0.999999)]);
    expect(bounds).to.deep.equal([[2_000, 4_000], [4_000, 8_000], [8_000, 16_000], [15_000, 30_000], [15_000, 30_000]]);
  });
});
