/**
 * What the service's own web pages (the API reference at /docs, the kitchen display at /kitchen)
 * share: their Content-Security-Policy, and files answered with an ETag and revalidated on each use.
 */
import { contentTag, ifNoneMatch } from '../conditional.js';
import type { Exchange } from '../exchange.js';
import { bytes, empty, type Reply } from '../reply.js';

/**
 * What a page may do: scripts and style sheets from here only (no inline script or style attribute;
 * styles set through the DOM, as Swagger UI does, are not governed by style-src), icons as data:
 * URLs, requests to this origin. The browser tests fail on any violation a page reports.
 */
export const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of a page itself (not of the files it loads). */
export const PAGE_HEADERS: readonly string[] = ['Content-Security-Policy', PAGE_POLICY, 'Referrer-Policy', 'no-referrer'];

/**
 * Every answer here may be stored but is revalidated before each use (ETag → 304): the URLs carry
 * no version, and a deploy may bring new files under the same names.
 */
const REVALIDATE = 'no-cache';

export const JS = 'text/javascript; charset=utf-8';
export const CSS = 'text/css; charset=utf-8';
export const HTML = 'text/html; charset=utf-8';
export const PNG = 'image/png';

/** An answer computed once: its bytes and the headers of every answer of it. */
export interface Rendered {
  readonly body: Buffer;
  readonly etag: string;
  readonly headers: readonly string[];
  readonly contentType: string;
}

export function render(body: Buffer, contentType: string, extra: readonly string[] = []): Rendered {
  const etag = contentTag(body);
  return { body, etag, contentType, headers: ['ETag', etag, 'Cache-Control', REVALIDATE, ...extra] };
}

export function answer(exchange: Exchange, rendered: Rendered): Reply {
  const conditional = exchange.header('if-none-match');
  if (conditional !== undefined && ifNoneMatch(conditional, rendered.etag)) return empty(304, rendered.headers);
  return bytes(200, rendered.body, rendered.headers, rendered.contentType);
}
