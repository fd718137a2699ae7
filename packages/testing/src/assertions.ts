/** Small async helpers shared by the contract suites and adapter tests. */
import { expect } from 'chai';
import { isDomainError, type DomainErrorCode } from '@storefront/domain';

/** The reason `promise` rejects with; fails the test if it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail('expected the promise to reject, but it resolved');
}

/** Asserts that `promise` rejects with a DomainError of `code`, and returns that error. */
export async function expectDomainError(promise: Promise<unknown>, code: DomainErrorCode): Promise<unknown> {
  const error = await rejectionOf(promise);
  expect(isDomainError(error), `expected a DomainError, got ${String(error)}`).to.equal(true);
  expect((error as { code: unknown }).code).to.equal(code);
  return error;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
