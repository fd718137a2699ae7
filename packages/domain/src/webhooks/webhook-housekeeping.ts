/**
 * Keeps the delivery store from growing without end (DECISIONS "Webhooks (outgoing)", issue 32
 * item 13): finished deliveries past their retention are removed in bounded batches, and so are
 * those of an endpoint that is gone, including ones a fault left behind. Endpoint ids are never
 * reused and an endpoint is stored before any delivery for it: a delivery whose endpoint is
 * missing is an orphan for good.
 */
import type { Clock } from '../shared/security.js';
import { clearTimer, setTimer } from '../shared/timers.js';
import type { WebhookDeliveryUpkeep, WebhookEndpointStore } from './ports.js';

export interface WebhookHousekeepingOptions {
  /** How often it sweeps. Default 60 s. */
  readonly everyMs?: number;
  /** Deliveries removed per statement. Default 500. */
  readonly batch?: number;
  /** Batches per sweep at most (the rest waits for the next sweep). Default 20. */
  readonly maxBatches?: number;
  readonly onError?: (error: unknown) => void;
}

export interface WebhookHousekeepingPorts {
  /** Only asked whether an endpoint is still there. */
  readonly endpoints: Pick<WebhookEndpointStore, 'get'>;
  readonly deliveries: WebhookDeliveryUpkeep;
  readonly clock: Clock;
}

export interface SweepResult {
  readonly expired: number;
  readonly orphanEndpoints: number;
}

export class WebhookHousekeeping {
  private started = false;
  private timer: unknown = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    private readonly ports: WebhookHousekeepingPorts,
    private readonly options: WebhookHousekeepingOptions = {},
  ) {}

  /** Sweeps every `everyMs` until stopped. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
  }

  /** Stops sweeping; resolves once a sweep in progress is done. */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== null) clearTimer(this.timer);
    this.timer = null;
    await this.sweeping;
  }

  /** One sweep now: expired deliveries (bounded), then the deliveries of endpoints that are gone. */
  async sweep(): Promise<SweepResult> {
    const { deliveries, endpoints, clock } = this.ports;
    const batch = this.options.batch ?? 500;
    const now = clock.now();
    let expired = 0;
    for (let i = 0; i < (this.options.maxBatches ?? 20); i++) {
      const removed = await deliveries.removeExpired(now, batch);
      expired += removed;
      if (removed < batch) break;
    }
    let orphanEndpoints = 0;
    for (const webhookId of await deliveries.endpointsWithDeliveries()) {
      if ((await endpoints.get(webhookId)) !== null) continue;
      await deliveries.removeEndpoint(webhookId);
      orphanEndpoints += 1;
    }
    return { expired, orphanEndpoints };
  }

  private schedule(): void {
    this.timer = setTimer(() => {
      this.timer = null;
      this.sweeping = this.sweep()
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          this.sweeping = null;
          if (this.started) this.schedule();
        });
    }, this.options.everyMs ?? 60_000);
    (this.timer as { unref?: () => void }).unref?.();
  }
}
