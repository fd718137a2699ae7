/**
 * The live order streams open on one app, and what keeps them honest (DECISIONS "Live order
 * updates"): a slot per stream, per caller and per instance, taken when the handler starts so that
 * simultaneous requests cannot all pass; one ticker that pings every stream and authenticates its
 * token again, so a revocation anywhere ends it within one period; local logouts, password resets
 * and erasures end streams at once. Details in docs/decisions.md, "Live order updates".
 */
import { type Caller, type Clock, DomainError, isDomainError } from '@storefront/domain';
import { type Authenticate, isStaffRole, systemClock, systemTimers, type Timers } from '@storefront/domain/adapter-kit';
import { EventStream, type StreamOwner } from './event-stream.js';
import { STREAM_LIMITS } from '../limits.js';
import { SlotTicker } from './slot-ticker.js';
import { EventFrames } from './frames.js';

export interface EventStreamsOptions {
  /** Default STREAM_LIMITS.pingMs. */
  readonly pingMs?: number | undefined;
  /** Default STREAM_LIMITS.revalidateMs. */
  readonly revalidateMs?: number | undefined;
  /** Default STREAM_LIMITS.perCaller. */
  readonly perCaller?: number | undefined;
  /** Default STREAM_LIMITS.perInstance. */
  readonly perInstance?: number | undefined;
  /** What one stream may leave unsent before it is cut (streamed-replies.ts). Default STREAM_LIMITS.maxBufferedBytes. */
  readonly maxBufferedBytes?: number | undefined;
  /** What a token's expiry is measured against. Default the system clock (tests: a FakeTimers). */
  readonly clock?: Clock | undefined;
  /** The ticker's and the deadlines' timers. Default the runtime's (tests: a FakeTimers). */
  readonly timers?: Timers | undefined;
}

/** The pings of a period are spread over this many ticks. */
const SLOTS = 15;

/** What a failed revalidation means for the stream: over, or (a store failure) not known yet. */
const REVOKED = new Set(['invalid_token', 'token_expired', 'account_disabled']);

export class EventStreams {
  /** Each event rendered once for every stream (frames.ts). */
  readonly frames = new EventFrames();
  private readonly perCaller: number;
  private readonly perInstance: number;
  private taken = 0;
  private readonly revalidateEvery: number;
  /** The streams taken, by customer (the limit, `endCustomer`) and by session (`endSession`). */
  private readonly byCustomer = new Map<string, Set<EventStream>>();
  private readonly bySession = new Map<string, Set<EventStream>>();
  private readonly ticker: SlotTicker<EventStream>;
  private readonly clock: Clock;

  constructor(
    private readonly authenticate: Pick<Authenticate, 'execute'>,
    options: EventStreamsOptions = {},
    failed: (error: unknown) => void = () => undefined,
  ) {
    const pingMs = options.pingMs ?? STREAM_LIMITS.pingMs;
    const revalidateMs = options.revalidateMs ?? STREAM_LIMITS.revalidateMs;
    this.perCaller = options.perCaller ?? STREAM_LIMITS.perCaller;
    this.perInstance = options.perInstance ?? STREAM_LIMITS.perInstance;
    if (!Number.isSafeInteger(this.perCaller) || this.perCaller < 1) throw new RangeError(`perCaller must be an integer ≥ 1, got ${this.perCaller}`);
    if (!Number.isSafeInteger(this.perInstance) || this.perInstance < 1) throw new RangeError(`perInstance must be an integer ≥ 1, got ${this.perInstance}`);
    if (!(revalidateMs > 0)) throw new RangeError(`revalidateMs must be above 0, got ${revalidateMs}`);
    this.revalidateEvery = Math.max(1, Math.round(revalidateMs / pingMs));
    this.clock = options.clock ?? systemClock;
    this.ticker = new SlotTicker(pingMs, SLOTS, (stream) => this.visit(stream), failed, options.timers ?? systemTimers);
  }

  /** Streams taken (open, or about to be). */
  get size(): number {
    return this.taken;
  }

  /** Streams `customerId` holds on this instance. */
  heldBy(customerId: string): number {
    return this.byCustomer.get(customerId)?.size ?? 0;
  }

  /**
   * A new stream for `owner`, counted against its limit and the instance's: `rate_limited` when it
   * already holds the most, `service_unavailable` when the instance does.
   */
  take(owner: StreamOwner): EventStream {
    if (this.taken >= this.perInstance) {
      throw new DomainError('service_unavailable', 'This instance holds as many event streams as it may; retry shortly.', {
        retryAfterSeconds: STREAM_LIMITS.retryAfterSeconds,
      });
    }
    if (this.heldBy(owner.customerId) >= this.perCaller) {
      throw new DomainError('rate_limited', `At most ${this.perCaller} event streams may be open at once; close one first.`, {
        retryAfterSeconds: STREAM_LIMITS.retryAfterSeconds,
      });
    }
    const stream = new EventStream(
      owner,
      this.frames,
      {
        opened: (opened) => this.ticker.add(opened),
        released: (released) => this.give(released),
      },
      this.clock.now().getTime(),
    );
    addTo(this.byCustomer, owner.customerId, stream);
    addTo(this.bySession, owner.sessionId, stream);
    this.taken += 1;
    return stream;
  }

  /** Ends every stream of the session (its logout on this instance). */
  endSession(sessionId: string): void {
    endAll(this.bySession.get(sessionId));
  }

  /** Ends every stream of the customer, whatever its session (a password reset, an account erased). */
  endCustomer(customerId: string): void {
    endAll(this.byCustomer.get(customerId));
  }

  private give(stream: EventStream): void {
    this.taken -= 1;
    this.ticker.delete(stream);
    removeFrom(this.byCustomer, stream.owner.customerId, stream);
    removeFrom(this.bySession, stream.owner.sessionId, stream);
  }

  private visit(stream: EventStream): void {
    stream.ping();
    stream.visits += 1;
    if (stream.visits % this.revalidateEvery === 0 && !stream.revalidating) this.revalidate(stream);
  }

  private revalidate(stream: EventStream): void {
    stream.revalidating = true;
    this.authenticate.execute(stream.owner.token).then(
      (caller) => {
        stream.revalidating = false;
        if (!stillAllowed(stream.owner, caller)) stream.end();
      },
      (error: unknown) => {
        stream.revalidating = false;
        if (isDomainError(error) && REVOKED.has(error.code)) stream.end();
      },
    );
  }
}

function addTo(index: Map<string, Set<EventStream>>, key: string, stream: EventStream): void {
  const streams = index.get(key);
  if (streams === undefined) index.set(key, new Set([stream]));
  else streams.add(stream);
}

function removeFrom(index: Map<string, Set<EventStream>>, key: string, stream: EventStream): void {
  const streams = index.get(key);
  streams?.delete(stream);
  if (streams?.size === 0) index.delete(key);
}

/** Ends each of `streams`; a copy is walked, as each one leaves the set when it ends. */
function endAll(streams: Set<EventStream> | undefined): void {
  if (streams !== undefined) for (const stream of [...streams]) stream.end();
}

function stillAllowed(owner: StreamOwner, caller: Caller): boolean {
  return caller.customer.customerId === owner.customerId && (!owner.staffOnly || isStaffRole(caller.customer.role));
}
