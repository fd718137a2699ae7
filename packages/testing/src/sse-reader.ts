/**
 * Reads a Server-Sent Events body from fetch, one frame at a time: what a browser's EventSource
 * parses, kept raw enough for a test to see every field (and every comment) the server wrote.
 */

/** One block of the stream (up to a blank line): its fields, or a comment. */
export interface SseFrame {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly retry?: string;
  /** A comment line's text without the colon (`ping`). */
  readonly comment?: string;
}

export interface SseReaderOptions {
  /**
   * How long `next`, `nextEvent` and `events` wait for a frame when not told: 1 s by default. A
   * test whose events may come only with a periodic sweep sets it above that sweep (only a failing
   * test ever waits that long).
   */
  readonly timeoutMs?: number;
  /**
   * Reconnects as an EventSource does once the stream ends or breaks, instead of ending: called after
   * `reconnectDelayMs` with the id of the last frame that carried one (`Last-Event-ID` to send),
   * it resolves to the next response to read, or to null to try again after the delay (a refused
   * connection, a non-200 answer). What it throws fails the read. Without it the end of the body is
   * the end of the stream.
   */
  readonly reconnect?: (lastEventId: string | undefined) => Promise<Response | null>;
  /** The wait before each reconnection: 200 ms when not told. */
  readonly reconnectDelayMs?: number;
}

export class SseReader {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private decoder = new TextDecoder();
  private buffer = '';
  private readonly frames: SseFrame[] = [];
  private reading: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;
  private done = false;
  private cancelled = false;
  private readonly timeoutMs: number;
  /** Everything received, as text (over every connection). */
  text = '';
  /** The id of the last frame that carried one: what a reconnection sends as `Last-Event-ID`. */
  lastEventId: string | undefined;
  /** How many responses have been read: 1, plus one per reconnection. */
  connections = 1;

  /** Reads nothing until asked: a refusal's JSON body stays readable with `res.json()`. */
  constructor(
    private res: Response,
    private readonly options: SseReaderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
  }

  /** The next frame, comments included; null once the stream has ended. Rejects when nothing comes within `ms`. */
  async next(ms = this.timeoutMs): Promise<SseFrame | null> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0) {
      if (this.done) return null;
      this.reading ??= this.read();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), Math.max(0, deadline - Date.now()))));
      const result = await Promise.race([this.reading, timeout]);
      clearTimeout(timer);
      if (result === 'timeout') throw new Error(`no frame within ${ms} ms (received ${JSON.stringify(this.text.slice(-300))})`);
      this.reading = undefined;
      if (result.done) this.done = true;
      else this.take(this.decoder.decode(result.value, { stream: true }));
    }
    return this.frames.shift()!;
  }

  /** The next frame that is not a comment (pings are skipped). */
  async nextEvent(ms = this.timeoutMs): Promise<SseFrame | null> {
    const deadline = Date.now() + ms;
    for (;;) {
      const frame = await this.next(Math.max(1, deadline - Date.now()));
      if (frame === null || frame.comment === undefined) return frame;
    }
  }

  /** The next `n` events, each within `ms`. */
  async events(n: number, ms = this.timeoutMs): Promise<(SseFrame | null)[]> {
    const out: (SseFrame | null)[] = [];
    for (let i = 0; i < n; i++) out.push(await this.nextEvent(ms));
    return out;
  }

  /**
   * Resolves once the server has ended the stream, with whatever came before (pings included).
   * Waits 1 s when not told, whatever `timeoutMs` says: a server ends a stream at once.
   */
  async end(ms = 1_000): Promise<SseFrame[]> {
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

  /** Stops reading (the client goes away), and reconnecting. */
  async cancel(): Promise<void> {
    this.cancelled = true;
    if (this.reader !== undefined) await this.reader.cancel().catch(() => undefined);
    else if (this.res.body !== null && !this.res.bodyUsed) await this.res.body.cancel().catch(() => undefined);
  }

  /** The next chunk of the stream; with `reconnect`, of the next response once one ends or breaks. */
  private async read(): ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> {
    const reconnect = this.options.reconnect;
    if (reconnect === undefined) return this.bodyReader().read();
    for (;;) {
      try {
        const result = await this.bodyReader().read();
        if (!result.done) return result;
      } catch {
        // A broken connection is an end like any other to an EventSource: it reconnects.
      }
      if (this.cancelled) return { done: true, value: undefined };
      await this.reopen(reconnect);
      if (this.cancelled) return { done: true, value: undefined };
    }
  }

  /** Waits and asks for a new response until one comes (or the reader is cancelled). */
  private async reopen(reconnect: NonNullable<SseReaderOptions['reconnect']>): Promise<void> {
    // A frame cut off by the end of its connection is dropped, as an EventSource drops it.
    this.buffer = '';
    this.decoder = new TextDecoder();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, this.options.reconnectDelayMs ?? 200));
      if (this.cancelled) return;
      const res = await reconnect(this.lastEventId);
      if (this.cancelled) {
        await res?.body?.cancel().catch(() => undefined);
        return;
      }
      if (res === null) continue;
      this.res = res;
      this.reader = undefined;
      this.connections++;
      return;
    }
  }

  private bodyReader(): ReadableStreamDefaultReader<Uint8Array> {
    if (this.reader === undefined) {
      if (this.res.body === null) throw new Error('no body to read');
      this.reader = this.res.body.getReader();
    }
    return this.reader;
  }

  private take(chunk: string): void {
    this.text += chunk;
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const frame = parseBlock(block);
      if (frame.id !== undefined) this.lastEventId = frame.id;
      this.frames.push(frame);
    }
  }
}

function parseBlock(block: string): SseFrame {
  const frame: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) {
      frame['comment'] = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (name in frame) throw new Error(`field ${name} twice in one frame: ${JSON.stringify(block)}`);
    frame[name] = value;
  }
  return frame as SseFrame;
}
