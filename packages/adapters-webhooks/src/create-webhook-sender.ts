/**
 * The WebhookSender port: signs and sends each attempt (http-sender.ts), by default on a worker
 * thread of its own. Profiled (docs/performance.md "Webhooks"): on the service's event loop each
 * request cost about 330 µs of it (a write and a read system call, a parse and an HMAC); on a
 * worker, the service's loop only hands over a job and takes back its outcome, in batches. `thread: 'main'` keeps it on the caller's loop
 * (embedders without worker threads; the tests run both).
 */
import { Worker } from 'node:worker_threads';
import type { WebhookDelivery, WebhookEndpoint, WebhookResponse, WebhookSender } from '@storefront/domain';
import { createHttpPoster, type HttpPosterOptions, type SendJob } from './http-sender.js';
import { signingSecrets } from './signature.js';

export interface WebhookSenderOptions extends HttpPosterOptions {
  /** Where requests are made: a worker thread of the sender's own (default), or the caller's loop. */
  readonly thread?: 'worker' | 'main' | undefined;
}

/** A WebhookSender that holds connections (and a thread) open: `close()` ends them, at shutdown. */
export interface HttpWebhookSender extends WebhookSender {
  close(): void;
}

function jobOf(endpoint: WebhookEndpoint, delivery: WebhookDelivery, now: Date): SendJob {
  return { url: endpoint.url, secrets: signingSecrets(endpoint.secrets, now), eventId: delivery.eventId, payload: delivery.payload, timestamp: Math.floor(now.getTime() / 1000) };
}

export function createWebhookSender(options: WebhookSenderOptions): HttpWebhookSender {
  const { thread, ...posterOptions } = options;
  if (thread === 'main') {
    const poster = createHttpPoster(posterOptions);
    return { send: (endpoint, delivery, now) => poster.post(jobOf(endpoint, delivery, now)), close: () => poster.close() };
  }
  return new WorkerSender(posterOptions);
}

/** The main side of send-worker.ts: jobs out in batches, outcomes back by id. */
class WorkerSender implements HttpWebhookSender {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (response: WebhookResponse) => void>();
  private outbox: [number, SendJob][] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: HttpPosterOptions) {}

  send(endpoint: WebhookEndpoint, delivery: WebhookDelivery, now: Date): Promise<WebhookResponse> {
    if (this.closed) return Promise.resolve({ kind: 'error', error: 'the sender is closed' });
    const id = this.nextId++;
    if (this.outbox.length === 0) setImmediate(() => this.flush());
    this.outbox.push([id, jobOf(endpoint, delivery, now)]);
    return new Promise((resolve) => this.pending.set(id, resolve));
  }

  close(): void {
    this.closed = true;
    this.worker?.postMessage('close');
    this.worker = undefined;
    this.settleAll('the sender is closed');
  }

  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    if (batch.length > 0 && !this.closed) this.started().postMessage(batch);
  }

  /** The worker, started on first use and again after it died. */
  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./send-worker.js', import.meta.url), { workerData: this.options });
    // Idle, it must not keep the process alive; requests in flight hold their promises, not the thread.
    worker.unref();
    worker.on('message', (batch: [number, WebhookResponse][]) => {
      for (const [id, response] of batch) {
        this.pending.get(id)?.(response);
        this.pending.delete(id);
      }
    });
    const died = (reason: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      // Every attempt in flight failed (its delivery is tried again on schedule).
      this.settleAll(reason);
    };
    worker.on('error', (error) => died(`the sender's thread failed: ${error.message}`));
    worker.on('exit', (code) => died(`the sender's thread exited (${code})`));
    this.worker = worker;
    return worker;
  }

  private settleAll(reason: string): void {
    for (const resolve of this.pending.values()) resolve({ kind: 'error', error: reason });
    this.pending.clear();
  }
}
