/**
 * One live order stream: the bridge between a domain feed (order-feeds) and a streamed reply. The
 * handler opens the feed before answering, so an order the caller may not see is a 404; items the
 * feed hands over at once are held until the headers are out. Whatever ends the stream, `release`
 * runs once: the feed is closed and the caller's stream slot given back (event-streams.ts).
 */
import type { FeedItem } from '@storefront/domain';
import type { Feed } from '@storefront/domain/adapter-kit';
import type { EventFrames } from './frames.js';
import { PING_FRAME, RETRY_FRAME } from './frames.js';
import type { StreamSink, StreamSource } from './streamed-replies.js';

/** Who holds the stream, as its registry keys it. */
export interface StreamOwner {
  readonly customerId: string;
  readonly sessionId: string;
  /** The access token the stream was opened with: authenticated again now and then. */
  readonly token: string;
  /** When that token expires, epoch milliseconds: the stream ends then. */
  readonly expiresAt: number;
  /** Whether only staff may go on reading it (a role taken away ends it). */
  readonly staffOnly: boolean;
}

/** What the registry is told about a stream. */
export interface StreamHooks {
  /** The headers are out: the stream is live (pings, revalidation). */
  opened(stream: EventStream): void;
  /** The stream is over, or will never start. Called once. */
  released(stream: EventStream): void;
}

export class EventStream implements StreamSource {
  readonly maxDurationMs: number;
  /** Visits by the registry's ticker (event-streams.ts decides which of them revalidate). */
  visits = 0;
  /** A revalidation of the token is under way: the next is not started before it ends. */
  revalidating = false;
  private sink: StreamSink | undefined;
  private held: Buffer[] = [];
  private feed: Feed | undefined;
  private released = false;

  constructor(
    readonly owner: StreamOwner,
    private readonly frames: EventFrames,
    private readonly hooks: StreamHooks,
    now: number,
  ) {
    // A token past its expiry but still inside the verifier's clock tolerance: over at once.
    this.maxDurationMs = Math.max(0, owner.expiresAt - now);
  }

  /** The feed's sink. */
  readonly push = (item: FeedItem): void => {
    if (this.released) return;
    const frame = this.frames.of(item);
    if (this.sink === undefined) this.held.push(frame);
    else this.sink.write(frame);
  };

  /** The feed opened for this stream: closed with it (at once when the stream is already over). */
  attach(feed: Feed): void {
    if (this.released) feed.close();
    else this.feed = feed;
  }

  open(sink: StreamSink): void {
    if (this.released) {
      // Ended (a logout) between the handler's answer and the headers.
      sink.end();
      return;
    }
    this.sink = sink;
    sink.onEnd(() => this.release());
    sink.write(RETRY_FRAME);
    for (const frame of this.held) sink.write(frame);
    this.held = [];
    this.hooks.opened(this);
  }

  cancel(): void {
    this.release();
  }

  ping(): void {
    this.sink?.write(PING_FRAME);
  }

  /** Ends the stream now (its session is over); one not yet open never starts. */
  end(): void {
    if (this.sink !== undefined) this.sink.end();
    else this.release();
  }

  /** Gives back what the stream holds: its feed, its place in the registry. Once. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.held = [];
    this.feed?.close();
    this.hooks.released(this);
  }
}
