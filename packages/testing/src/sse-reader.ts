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
}

export class SseReader {
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly decoder = new TextDecoder();
  private buffer = '';
  private readonly frames: SseFrame[] = [];
  private reading: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']> | undefined;
  private done = false;
  private readonly timeoutMs: number;
  /** Everything received, as text. */
  text = '';

  /** Reads nothing until asked: a refusal's JSON body stays readable with `res.json()`. */
  constructor(
    private readonly res: Response,
    options: SseReaderOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
  }

  /** The next frame, comments included; null once the stream has ended. Rejects when nothing comes within `ms`. */
  async next(ms = this.timeoutMs): Promise<SseFrame | null> {
    const deadline = Date.now() + ms;
    while (this.frames.length === 0) {
      if (this.done) return null;
      this.reading ??= this.bodyReader().read();
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

  /** Stops reading (the client goes away). */
  async cancel(): Promise<void> {
    if (this.reader !== undefined) await this.reader.cancel().catch(() => undefined);
    else if (this.res.body !== null && !this.res.bodyUsed) await this.res.body.cancel().catch(() => undefined);
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
      this.frames.push(parseBlock(block));
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
