/**
 * Helpers of the live-updates end-to-end spec: opening a Server-Sent Events stream with fetch (its
 * status and headers checked against packages/adapters-http/openapi.yaml like every other answer), read one frame
 * at a time by the SseReader of @storefront/testing, and summaries of its frames.
 */
import { SseReader, type SseFrame } from '@storefront/testing';
import { expect } from 'chai';
import { assertMatchesContract, contract } from '../contract/openapi.js';

/** What opening a stream gave: a stream to read, or a refusal (its JSON body already checked). */
export type Opened = { readonly status: 200; readonly headers: Headers; readonly stream: SseReader } | { readonly status: number; readonly headers: Headers; readonly body: { error?: string; retry_after?: number } };

/**
 * GET `path` as a stream client does: `Authorization: Bearer` when a token is given, and any other
 * header (`Last-Event-ID`). A refusal is read whole; a stream is left open for the caller to read,
 * waiting up to 3 s for a frame by default: above the relay's 1 s sweep, which publishes what a
 * change's own notification missed (only a failing test ever waits that long).
 */
export async function openEvents(base: string, path: string, token: string | undefined, headers: Record<string, string> = {}): Promise<Opened> {
  const all: Record<string, string> = { Accept: 'text/event-stream', ...headers };
  if (token !== undefined) all['Authorization'] = `Bearer ${token}`;
  const res = await fetch(base + path, { headers: all });
  if (res.status !== 200) {
    const text = await res.text();
    assertMatchesContract({ method: 'GET', path, status: res.status, headers: res.headers, text });
    return { status: res.status, headers: res.headers, body: JSON.parse(text) as { error?: string } };
  }
  // The body never ends by itself: the contract sees the status and headers (a text/event-stream
  // body is a string to it).
  assertMatchesContract({ method: 'GET', path, status: 200, headers: res.headers, text: '' });
  return { status: 200, headers: res.headers, stream: new SseReader(res, { timeoutMs: 3_000 }) };
}

/** Opens a stream that must be answered 200; its `retry: 3000` is read. */
export async function follow(base: string, path: string, token: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const opened = await openEvents(base, path, token, headers);
  expect(opened.status, `GET ${path}: ${JSON.stringify('body' in opened ? opened.body : '')}`).to.equal(200);
  const { stream } = opened as { stream: SseReader };
  expect(await stream.next()).to.deep.equal({ retry: '3000' });
  return stream;
}

/** Throws unless `value` satisfies the schema of packages/adapters-http/openapi.yaml at `pointer`. */
export function expectSchema(pointer: string, value: unknown): void {
  const errors = contract().validate(pointer, value);
  expect(errors, `${pointer}: ${JSON.stringify(value)}`).to.equal(null);
}

export function dataOf(frame: SseFrame | null): Record<string, unknown> {
  if (frame?.data === undefined) throw new Error(`no data in ${JSON.stringify(frame)}`);
  return JSON.parse(frame.data) as Record<string, unknown>;
}

/** `placed <order_id>`, `<status>@<version>` or `reset`: a frame in a line, to compare sequences. */
export function summary(frame: SseFrame | null): string {
  if (frame === null) return 'end';
  if (frame.event === 'reset') return 'reset';
  const data = dataOf(frame);
  return frame.event === 'order.placed' ? `placed ${String(data['order_id'])}` : `${String(data['status'])}@${String(data['version'])}`;
}
