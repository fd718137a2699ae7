/**
 * The top level of a JSON body as a record of known fields: a body that is not an object, or a
 * field the route does not know, is a 400 naming it (a misspelt field must not be silently
 * dropped, e.g. `"availble": false` leaving a dish on the menu).
 */
import type { FieldIssue } from '@storefront/domain';
import { isRecord } from '@storefront/domain';
import { validationProblem } from './problem.js';

/** `body` (undefined when none was sent, read as `{}`) with only `fields`; else validation_failed. */
export function knownFields(body: unknown, fields: readonly string[]): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) throw validationProblem([{ path: '', message: `the body must be a JSON object${fields.length === 0 ? '' : ` with ${fields.join(', ')}`}` }]);
  const issues: FieldIssue[] = [];
  for (const key of Object.keys(body)) if (!fields.includes(key)) issues.push({ path: key, message: 'is not a known field' });
  if (issues.length > 0) throw validationProblem(issues);
  return body;
}

/**
 * `body` as a record whatever its fields (undefined when none was sent, read as `{}`); a body
 * that is not a JSON object is validation_failed. For the auth routes, which ignore unknown
 * fields as login always has.
 */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) throw validationProblem([{ path: '', message: 'the body must be a JSON object' }]);
  return body;
}

/** A required boolean field; validation_failed naming it otherwise. */
export function requiredBoolean(body: Record<string, unknown>, field: string): boolean {
  const value = body[field];
  if (typeof value !== 'boolean') throw validationProblem([{ path: field, message: 'is required: true or false' }]);
  return value;
}
