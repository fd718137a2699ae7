/**
 * GET /api/staff/events, kept open: read with fetch (Bearer header) and parsed as Server-Sent
 * Events, reopened after every end with the last event id seen (`Last-Event-ID`: the server
 * replays what came after it, none twice, none missing). A stream that ends cleanly (the token it
 * was opened with expired, the server shed a lagging reader, a deploy) is reopened at once; a
 * failure waits the server's `retry` first, and the page shows its banner until a stream is open.
 */
import type { Session } from './session.js';
import { SseParser, type SseEvent } from './sse.js';

export interface LiveHandlers {
  /** A stream is open; `resumed` when it was opened with a Last-Event-ID (else the page must re-read). */
  connected(resumed: boolean): void;
  /** No stream is open, and opening one failed: the page shows its banner. */
  disconnected(): void;
  event(event: SseEvent): void;
  /** 403: the account is no longer staff; the feed stops. */
  refused(): void;
}

/** Until the server's `retry:` says otherwise (it sends 3000). */
const DEFAULT_RETRY_MS = 3_000;

export class LiveFeed {
  private lastEventId: string | undefined;
  private retryMs = DEFAULT_RETRY_MS;
  private readonly controller = new AbortController();

  constructor(
    private readonly session: Session,
    private readonly handlers: LiveHandlers,
  ) {}

  start(): void {
    void this.run();
  }

  stop(): void {
    this.controller.abort();
  }

  private get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      const outcome = await this.once().catch(() => 'failed' as const);
      if (this.stopped || outcome === 'refused') return;
      if (outcome === 'ended') {
        failures = 0;
        continue;
      }
      failures += 1;
      this.handlers.disconnected();
      // The first retry soon (a restart takes a moment), then the server's pace.
      await sleep(failures === 1 ? Math.min(1_000, this.retryMs) : this.retryMs, this.controller.signal);
    }
  }

  /** One stream, from opening to its end. */
  private async once(): Promise<'ended' | 'failed' | 'refused'> {
    const resumeFrom = this.lastEventId;
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (resumeFrom !== undefined) headers['Last-Event-ID'] = resumeFrom;
    const response = await this.session.fetch('/api/staff/events', { headers, signal: this.controller.signal });
    if (response.status === 403) {
      this.handlers.refused();
      return 'refused';
    }
    if (response.status !== 200 || response.body === null) {
      await response.body?.cancel();
      return 'failed';
    }
    this.handlers.connected(resumeFrom !== undefined);
    const parser = new SseParser({
      event: (event) => {
        if (event.id !== undefined) this.lastEventId = event.id;
        this.handlers.event(event);
      },
      retry: (ms) => {
        this.retryMs = Math.max(500, ms);
      },
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 'ended';
      parser.push(value);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
