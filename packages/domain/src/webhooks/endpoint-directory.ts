/**
 * The endpoints as the relay's feed and the dispatcher read them: the store's list, kept for
 * `ttlMs` (default 1 s) so that a busy outbox does not read every endpoint per drain. A change made
 * through this instance (ManageWebhooks, the dispatcher disabling one) invalidates it at once;
 * another instance's change is seen within `ttlMs`.
 */
import type { Clock } from '../shared/security.js';
import type { WebhookEndpoint } from './model.js';
import type { WebhookEndpointStore } from './ports.js';

export const ENDPOINT_CACHE_MS = 1000;

export class EndpointDirectory {
  private cached: { readonly until: number; readonly endpoints: ReadonlyMap<string, WebhookEndpoint> } | null = null;
  private loading: Promise<ReadonlyMap<string, WebhookEndpoint>> | null = null;
  /** Bumped by every invalidation: a read that started before one must not fill the cache. */
  private generation = 0;

  constructor(
    private readonly store: WebhookEndpointStore,
    private readonly clock: Clock,
    private readonly ttlMs = ENDPOINT_CACHE_MS,
  ) {}

  /** Every endpoint by id, as of at most `ttlMs` ago (or the last change through this instance). */
  async all(): Promise<ReadonlyMap<string, WebhookEndpoint>> {
    const cached = this.cached;
    if (cached !== null && this.clock.now().getTime() < cached.until) return cached.endpoints;
    return (this.loading ??= this.load());
  }

  /** Forget the list: the next read goes to the store. */
  invalidate(): void {
    this.generation += 1;
    this.cached = null;
    this.loading = null;
  }

  private async load(): Promise<ReadonlyMap<string, WebhookEndpoint>> {
    const generation = this.generation;
    // The list is as old as the read's start: counted from then, another instance's change is seen
    // within ttlMs of being stored, however long the read took.
    const readAt = this.clock.now().getTime();
    try {
      const endpoints = new Map((await this.store.list()).map((endpoint) => [endpoint.webhookId, endpoint]));
      if (generation === this.generation) this.cached = { until: readAt + this.ttlMs, endpoints };
      return endpoints;
    } finally {
      if (generation === this.generation) this.loading = null;
    }
  }
}
