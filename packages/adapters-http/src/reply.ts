/**
 * What a handler answers: a status, headers and a body, as a value. The lifecycle adds what every
 * answer carries (request id, nosniff, the rate-limit headers) and writes it once (write-reply.ts).
 *
 * Headers are a flat list (name, value, name, value, ...), what Node's `writeHead` takes: with the
 * dozen headers every answer carries, one validated pass over a list cost far less than a
 * `setHeader` per header (docs/performance.md).
 */
import type { StreamSource } from './sse/streamed-replies.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

/** The body of a reply. */
export type ReplyBody =
  | { readonly kind: 'none' }
  /** A value serialised with JSON.stringify when written. */
  | { readonly kind: 'json'; readonly value: unknown }
  /** Bytes or text already serialised (JSON unless `contentType` says otherwise). */
  | { readonly kind: 'bytes'; readonly data: Buffer | string; readonly contentType: string }
  /** Chunks written as they come (Server-Sent Events): see sse/streamed-replies.ts. */
  | { readonly kind: 'stream'; readonly source: StreamSource; readonly contentType: string };

export interface Reply {
  readonly status: number;
  /** Name, value, name, value, ... */
  readonly headers: readonly string[];
  readonly body: ReplyBody;
}

const NONE: ReplyBody = { kind: 'none' };
const NO_HEADERS: readonly string[] = [];

/** A JSON answer. */
export function json(status: number, value: unknown, headers: readonly string[] = NO_HEADERS): Reply {
  return { status, headers, body: { kind: 'json', value } };
}

/** An answer already serialised, e.g. a rendered menu. */
export function bytes(status: number, data: Buffer | string, headers: readonly string[] = NO_HEADERS, contentType = JSON_TYPE): Reply {
  return { status, headers, body: { kind: 'bytes', data, contentType } };
}

/** An answer without a body (204, 304). */
export function empty(status: number, headers: readonly string[] = NO_HEADERS): Reply {
  return { status, headers, body: NONE };
}

/** A streamed answer: headers now, then whatever the source writes until it or the connection ends. */
export function stream(status: number, source: StreamSource, headers: readonly string[] = NO_HEADERS, contentType = 'text/event-stream; charset=utf-8'): Reply {
  return { status, headers, body: { kind: 'stream', source, contentType } };
}

/**
 * Header names compared case-insensitively without lower-casing (no new strings): the same
 * constant is the common case, then names of the same length, letter by letter.
 */
export function sameHeaderName(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y && !(isAsciiLetter(x) && (x | 0x20) === (y | 0x20))) return false;
  }
  return true;
}

function isAsciiLetter(code: number): boolean {
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

/** The value of `name` in a flat header list. */
export function headerValue(headers: readonly string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (sameHeaderName(headers[i]!, name)) return headers[i + 1];
  return undefined;
}
