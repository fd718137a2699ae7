/**
 * Conditional request headers (RFC 9110 §13): If-None-Match for reads that can answer 304, and
 * If-Match for a kitchen move that must not overwrite a change it has not seen.
 */
import type { FieldIssue } from '@storefront/domain';
import { createHash } from 'node:crypto';
import { validationProblem } from './problem.js';

/** RFC 9110 §13.1.2: weak comparison, a list of tags, or `*`. */
export function ifNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The ETag of bytes computed once and served many times (the menu, the API reference): their hash. */
export function contentTag(body: Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/** The ETag of an order: its version, which changes with every move and nothing else. */
export function versionTag(version: number): string {
  return `"${version}"`;
}

const VERSION_TAG = /^(?:W\/)?"([1-9][0-9]{0,14})"$/;

/**
 * The version an `If-Match` header names: undefined without the header or with `*` (any current
 * order). One tag only: a list would ask "any of these versions", which the move cannot express,
 * and no client of ours sends one; it is refused like any malformed value (400), never ignored.
 *
 * A weak tag (`W/"3"`) is read as `"3"`, although RFC 9110 compares If-Match strongly: our tags
 * name the order's version, not a byte representation, so weak and strong say the same thing, and
 * a proxy that compresses answers (nginx with gzip) hands clients the weakened tag to send back.
 */
export function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const match = VERSION_TAG.exec(value);
  if (match === null) {
    const issue: FieldIssue = { path: 'If-Match', message: 'must be one entity tag holding the order version, e.g. "3" (the ETag of GET /api/orders/{order_id})' };
    throw validationProblem([issue]);
  }
  return Number(match[1]);
}
