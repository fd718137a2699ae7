/** What the domain's refusals look like to the tests: the error of a call, the paths of a menu's issues. */
import { expect } from 'chai';
import { DomainError, isDomainError } from '../src/shared/errors.js';
import { parseMenuDocument } from '../src/menu/menu-document.js';

/** The DomainError `run` throws (anything else is rethrown; no throw fails the test). */
export function refusal(run: () => unknown, expected = 'expected a refusal'): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  return expect.fail(expected);
}

/** The paths `parseMenuDocument` names when it refuses `document` with validation_failed. */
export function issuesOf(document: unknown): string[] {
  const error = refusal(() => parseMenuDocument(document), 'expected the menu to be refused');
  expect(isDomainError(error, 'validation_failed')).to.equal(true);
  return error.details!.map((d) => d.path);
}
