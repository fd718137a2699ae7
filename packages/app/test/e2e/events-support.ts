/**
 * Helpers of the live-updates end-to-end spec: opening a Server-Sent Events stream with fetch (its
 * status and headers checked against docs/openapi.yaml like every other answer), and reading it
 * one frame at a time as an EventSource would parse it.
 */
import { expect } from 'chai';
import { assertMatchesContract, contract } from '../contract/openapi.js';

/** One block of the stream (up to a blank line): its fields, or a comment. */
export interface SseFrame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly retry?: string;
  /** A comment line's text without the colon (`ping`). */
  readonly comment?: string;
}

/** What opening a stream gave: a stream to read, or a refusal (its JSON body already checked). */
export type Opened = { readonly status: 200; readonly headers: Headers; readonly stream: SseStream } | { readonly status: number; readonly headers: Headers; readonly body: { error?: string; retry_after?: number } };

/**
 * GET `path` as a stream client does: `Authorization: Bearer` when a token is given, and any other
 * header (`Last-Event-ID`). A refusal is read whole; a stream is left open for the caller to read.
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
  return { status: 200, headers: res.headers, stream: new SseStream(res) };
}

/** Opens a stream that must be answered 200; its `retry: 3000` is read. */
export async function follow(base: string, path: string, token: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const opened = await openEvents(base, path, token, headers);
  expect(opened.status, `GET ${path}: ${JSON.stringify('body' in opened ? opened.body : '')}`).to.equal(200);
  const { stream } = opened as { stream: SseStream };
  expect(await stream.next()).to.deep.equal({ retry: '3000' });
  return stream;
}

/** Throws unless `value` satisfies the schema of docs/openapi.yaml at `pointer`. */
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

export class SseStream {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private readonly frames: SseFrame[] = [];
  private reading: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;
  private done = false;

  constructor(res: Response) {
    if (res.body === null) throw new Error('a stream without a body');
    this.reader = res.body.getReader();
  }

  /**
   * The next frame, comments included; null once the server has ended the stream. Rejects after
   * `ms` without one: 3 s by default, above the relay's 1 s sweep, which publishes what a change's
   * own notification missed (only a failing test ever waits that long).
   */
  async next(ms = 3_000): Promise<SseFrame | null> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0) {
      if (this.done) return null;
      this.reading ??= this.reader.read();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()))));
      const result = await Promise.race([this.reading, timeout]);
      clearTimeout(timer);
      if (result === 'timeout') throw new Error(`no frame within ${ms} ms`);
      this.reading = undefined;
      if (result.done) this.done = true;
      else this.take(this.decoder.decode(result.value, { stream: true }));
    }
    return this.frames.shift()!;
  }

  /** The next event (pings skipped). */
  async nextEvent(ms = 3_000): Promise<SseFrame | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (frame === null || frame.comment === undefined) return frame;
    }
  }

  /** The next `n` events. */
  async events(n: number, ms = 3_000): Promise<(SseFrame | null)[]> {
    const out: (SseFrame | null)[] = [];
    for (let i = 0; i < n; i++) out.push(await this.nextEvent(ms));
    return out;
  }

  /** Resolves once the server ends the stream; what came before, pings included. */
  async ended(ms = 1_000): Promise<SseFrame[]> {
    const deadline = Date.now() + ms;
    const before: SseFrame[] = [];
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (frame === null) return before;
      before.push(frame);
    }
  }

  /** Resolves true when no event comes within `ms` (pings aside). */
  async quietFor(ms: number): Promise<boolean> {
    return this.nextEvent(ms).then(
      () => false,
      () => true,
    );
  }

  /** The client goes away. */
  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          frame['comment'] = line.slice(1).trim();
          continue;
        }
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        if (name in frame) throw new Error(`${name} twice in one frame: ${JSON.stringify(block)}`);
        frame[name] = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      }
      this.frames.push(frame as SseFrame);
    }
  }
}
