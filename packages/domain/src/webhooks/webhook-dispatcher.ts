/**
 * The WebhookDispatcher sends what the delivery store holds: it leases due deliveries (one worker
 * at a time per delivery, across instances), sends each through the WebhookSender, and records the
 * outcome with its lease token. At most `perEndpoint` requests in flight per endpoint and `total`
 * in all; a lease and this worker's records never overlap (lease-window.ts). Bounds, wake-ups and
 * the busy pause: docs/decisions.md, "Reasoning moved out of module headers (issue 33)".
 */
import type { Clock } from '../shared/security.js';
import { clearTimer, setTimer } from '../shared/timers.js';
import type { EndpointDirectory } from './endpoint-directory.js';
import type { WebhookHousekeeping } from './webhook-housekeeping.js';
import { WEBHOOK_FAILING_DISABLE_MS, WEBHOOK_RETENTION_MS, type DeliveryOutcome, type LeasedDelivery, type WebhookEndpoint } from './model.js';
import type { WebhookDeliveryQueue, WebhookEndpointStore, WebhookSender } from './ports.js';
import { GONE, outcomeOf, type Random } from './retry-schedule.js';
import { withSigningSecrets } from './webhook-secrets.js';

export interface WebhookDispatcherOptions {
  /** Requests in flight per endpoint. Default 4. */
  readonly perEndpoint?: number;
  /** Requests in flight in all. Default 32. */
  readonly total?: number;
  /**
   * How long a lease holds a delivery (then another worker may take it over). It must outlast the
   * sender's time-out and the wait for the endpoint's turn. Default 60 s.
   */
  readonly leaseMs?: number;
  /** How often the store is polled without a notify. Default 1,000 ms. */
  readonly pollMs?: number;
  /** The jitter's random numbers. Default Math.random. */
  readonly random?: Random;
  /** How long a delivered or failed delivery is kept (WEBHOOK_RETENTION_DAYS). Default WEBHOOK_RETENTION_MS. */
  readonly retentionMs?: number;
  /**
   * Whether the host is busy serving requests now (`now`) and, while it is, how long leasing pauses
   * after each batch (`pauseMs`: the host's period of telling, as it cannot say sooner whether the
   * rush is over). Default: never busy.
   */
  readonly busy?: { readonly now: () => boolean; readonly pauseMs: number };
  /** Told of each attempt's outcome (metrics). */
  readonly onOutcome?: (kind: DeliveryOutcome['kind']) => void;
  /**
   * Told when the store fails: once when leasing starts failing (not at every poll while it is
   * down; the next poll tries again), and for each attempt whose outcome could not be recorded.
   */
  readonly onError?: (error: unknown) => void;
}

export interface WebhookDispatcherPorts {
  readonly endpoints: WebhookEndpointStore;
  readonly deliveries: WebhookDeliveryQueue;
  readonly sender: WebhookSender;
  readonly directory: EndpointDirectory;
  readonly clock: Clock;
  /** Runs while the dispatcher runs (removes expired and orphaned deliveries). */
  readonly housekeeping?: WebhookHousekeeping;
}

/** One endpoint's deliveries in this worker: those being sent, and those leased waiting for a place. */
interface Lane {
  active: number;
  readonly waiting: LeasedDelivery[];
}

export class WebhookDispatcher {
  private readonly perEndpoint: number;
  private readonly total: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly random: Random;
  private readonly lanes = new Map<string, Lane>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Deliveries leased and not yet recorded (sending or waiting). */
  private held = 0;
  private started = false;
  private timer: unknown = null;
  private pumping: Promise<void> | null = null;
  private again = false;
  /** Leasing failed last time: the failure was told once. */
  private leaseFailing = false;
  /** Set while a lease runs (or waits for the records in flight): new records wait for it. */
  private leaseTurn: Promise<void> | null = null;
  private recording = 0;
  private recordsDone: (() => void) | null = null;
  /** While busy: no lease before this time (epoch ms of the clock of the machine, not the injected one). */
  private pausedUntil = 0;
  private wake: unknown = null;

  constructor(
    private readonly ports: WebhookDispatcherPorts,
    private readonly options: WebhookDispatcherOptions = {},
  ) {
    this.perEndpoint = options.perEndpoint ?? 4;
    this.total = options.total ?? 32;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.random = options.random ?? Math.random;
  }

  /** Starts leasing: now, on every notify and every `pollMs`. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
    this.notify();
    this.ports.housekeeping?.start();
  }

  /** Stops leasing; resolves once the requests in flight are recorded. */
  async stop(): Promise<void> {
    this.started = false;
    await this.ports.housekeeping?.stop();
    if (this.timer !== null) clearTimer(this.timer);
    this.timer = null;
    if (this.wake !== null) clearTimer(this.wake);
    this.wake = null;
    await this.pumping;
    // Waiting deliveries are not sent: their leases run out and a worker takes them over.
    for (const lane of this.lanes.values()) this.held -= lane.waiting.splice(0).length;
    await this.settled();
  }

  /** Deliveries were enqueued or made due: lease soon (coalesced with a lease in progress). */
  notify(): void {
    if (this.started) void this.pump();
  }

  /**
   * One round of leasing now, whether started or not (tests, and `notify`): resolves when the
   * leased deliveries are handed to their lanes, not when they are sent (see `settled`).
   */
  pump(): Promise<void> {
    if (this.pumping !== null) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.leaseAll().finally(() => {
      this.pumping = null;
      if (this.again) {
        this.again = false;
        void this.pump();
      }
    });
    return this.pumping;
  }

  /** Resolves when no request is in flight (the ones started after the call included). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0 || this.pumping !== null) await Promise.all([...this.inFlight, this.pumping]);
  }

  /** Requests in flight now, per endpoint (tests look at the bounds). */
  sendingTo(webhookId: string): number {
    return this.lanes.get(webhookId)?.active ?? 0;
  }

  private schedule(): void {
    if (!this.started) return;
    this.timer = setTimer(() => {
      this.timer = null;
      this.notify();
      this.schedule();
    }, this.pollMs);
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async leaseAll(): Promise<void> {
    try {
      for (;;) {
        const room = this.total - this.held;
        if (room <= 0) return;
        const endpoints = await this.ports.directory.all();
        const enabled = [...endpoints.values()].filter((endpoint) => endpoint.enabled).map((endpoint) => endpoint.webhookId);
        const full = enabled.filter((webhookId) => this.heldBy(webhookId) >= this.perEndpoint);
        if (full.length === enabled.length) return;
        const host = this.options.busy;
        const busy = host?.now() === true;
        if (busy && this.pausing()) return;
        const limit = Math.min(room, this.perEndpoint);
        const leased = await this.exclusively(() =>
          this.ports.deliveries.lease({
            now: this.ports.clock.now(),
            limit,
            leaseMs: this.leaseMs,
            webhookIds: enabled,
            excludeWebhookIds: full,
          }),
        );
        this.leaseFailing = false;
        for (const delivery of leased) this.admit(delivery);
        if (leased.length < limit) return;
        if (busy && host !== undefined) {
          this.pausedUntil = Date.now() + host.pauseMs;
          return;
        }
      }
    } catch (error) {
      if (!this.leaseFailing) this.options.onError?.(error);
      this.leaseFailing = true;
    }
  }

  /** Whether a busy pause is running; if so, a lease is asked for when it ends. */
  private pausing(): boolean {
    const left = this.pausedUntil - Date.now();
    if (left <= 0) return false;
    if (this.wake === null && this.started) {
      this.wake = setTimer(() => {
        this.wake = null;
        this.notify();
      }, left);
      (this.wake as { unref?: () => void }).unref?.();
    }
    return true;
  }

  private heldBy(webhookId: string): number {
    const lane = this.lanes.get(webhookId);
    return lane === undefined ? 0 : lane.active + lane.waiting.length;
  }

  private admit(delivery: LeasedDelivery): void {
    let lane = this.lanes.get(delivery.webhookId);
    if (lane === undefined) this.lanes.set(delivery.webhookId, (lane = { active: 0, waiting: [] }));
    lane.waiting.push(delivery);
    this.held += 1;
    this.run(delivery.webhookId, lane);
  }

  /** Starts the lane's waiting deliveries while it has places. */
  private run(webhookId: string, lane: Lane): void {
    while (lane.active < this.perEndpoint && lane.waiting.length > 0) {
      const delivery = lane.waiting.shift()!;
      lane.active += 1;
      const attempt = this.attempt(delivery).finally(() => {
        this.inFlight.delete(attempt);
        lane.active -= 1;
        this.held -= 1;
        if (lane.active === 0 && lane.waiting.length === 0) this.lanes.delete(webhookId);
        else this.run(webhookId, lane);
        this.notify();
      });
      this.inFlight.add(attempt);
    }
  }

  private async attempt(delivery: LeasedDelivery): Promise<void> {
    try {
      const now = this.ports.clock.now();
      // A delivery that waited past its lease may be another worker's now: leave it to that one.
      if (delivery.leaseUntil.getTime() <= now.getTime()) return;
      const endpoint = (await this.ports.directory.all()).get(delivery.webhookId);
      if (endpoint === undefined || !endpoint.enabled) return;
      const response = await this.ports.sender.send(withSigningSecrets(endpoint, now), delivery, now);
      const outcome = this.kept(outcomeOf(response, delivery.attempts + 1, this.ports.clock.now(), this.random));
      if (!(await this.recorded(delivery, outcome))) return;
      this.options.onOutcome?.(outcome.kind);
      await this.judgeEndpoint(endpoint, outcome);
    } catch (error) {
      this.options.onError?.(error);
    }
  }

  /** A finished outcome with the time its delivery is kept until. */
  private kept(outcome: DeliveryOutcome): DeliveryOutcome {
    if (outcome.kind === 'retry') return outcome;
    return { ...outcome, keepUntil: new Date(outcome.at.getTime() + (this.options.retentionMs ?? WEBHOOK_RETENTION_MS)) };
  }

  /** Runs a lease once no record of this worker is in flight, holding new records back meanwhile. */
  private async exclusively<T>(lease: () => Promise<T>): Promise<T> {
    let release!: () => void;
    this.leaseTurn = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.recording > 0) await new Promise<void>((resolve) => (this.recordsDone = resolve));
      return await lease();
    } finally {
      this.leaseTurn = null;
      release();
    }
  }

  /** Records an outcome, after the lease that may be running. */
  private async recorded(delivery: LeasedDelivery, outcome: DeliveryOutcome): Promise<boolean> {
    while (this.leaseTurn !== null) await this.leaseTurn;
    this.recording += 1;
    try {
      return await this.ports.deliveries.record(delivery.deliveryId, delivery.leaseToken, outcome);
    } finally {
      this.recording -= 1;
      if (this.recording === 0 && this.recordsDone !== null) {
        this.recordsDone();
        this.recordsDone = null;
      }
    }
  }

  /** The endpoint rules after a recorded outcome: clear failing on success, disable on 410 or 24 h of failures. */
  private async judgeEndpoint(endpoint: WebhookEndpoint, outcome: DeliveryOutcome): Promise<void> {
    const { endpoints, directory } = this.ports;
    if (outcome.kind === 'delivered') {
      if (endpoint.failingSince !== undefined) {
        await endpoints.update(endpoint.webhookId, { failingSince: null, updatedAt: outcome.at });
        directory.invalidate();
      }
      return;
    }
    if (outcome.statusCode === GONE) return this.disable(endpoint.webhookId, 'gone', outcome.at);
    const marked = await endpoints.markFailing(endpoint.webhookId, outcome.at);
    if (marked === null) return;
    if (endpoint.failingSince === undefined) directory.invalidate();
    const since = marked.failingSince;
    if (marked.enabled && since !== undefined && outcome.at.getTime() - since.getTime() >= WEBHOOK_FAILING_DISABLE_MS) {
      await this.disable(endpoint.webhookId, 'failing', outcome.at);
    }
  }

  private async disable(webhookId: string, reason: string, at: Date): Promise<void> {
    await this.ports.endpoints.update(webhookId, { enabled: false, disabledReason: reason, updatedAt: at });
    this.ports.directory.invalidate();
  }
}
