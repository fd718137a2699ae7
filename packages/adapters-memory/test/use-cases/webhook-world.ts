/**
 * A storefront with webhooks for the use-case tests: the memory stores, a fake clock, a sender that
 * records every request and answers as the test says (the real HTTP sender has its own tests in
 * adapters-webhooks), and a seeded jitter.
 */
import { createStorefront, type StorefrontOptions, type StorefrontPorts, type WebhookAdministration, type WebhookDelivery, type WebhookEndpoint, type WebhookSender } from '@storefront/domain';
import type { WebhookDispatcher, WebhookResponse } from '@storefront/domain/adapter-kit';
import { FakeClock } from '@storefront/testing';
import { createMemoryAdapters, type MemoryAdapters } from '../../src/index.js';
import { CountingHasher } from './counting-hasher.js';
import { cryptoOn, withMenu, type World } from './world.js';

export interface SentRequest {
  readonly webhookId: string;
  readonly eventId: string;
  readonly type: string;
  readonly orderVersion: number | undefined;
  readonly secrets: readonly string[];
  readonly body: unknown;
}

/** What the receiver answers to one request; a promise holds the request open (a slow endpoint). */
export type Answer = (endpoint: WebhookEndpoint, delivery: WebhookDelivery) => WebhookResponse | Promise<WebhookResponse>;

export const OK: WebhookResponse = { kind: 'response', statusCode: 200 };

export class FakeSender implements WebhookSender {
  readonly sent: SentRequest[] = [];
  /** Requests in flight now, and the most ever seen, per endpoint and in all. */
  private readonly open = new Map<string, number>();
  readonly peak = new Map<string, number>();
  openInAll = 0;
  peakInAll = 0;
  answer: Answer = () => OK;

  async send(endpoint: WebhookEndpoint, delivery: WebhookDelivery): Promise<WebhookResponse> {
    this.sent.push({
      webhookId: endpoint.webhookId,
      eventId: delivery.eventId,
      type: delivery.type,
      orderVersion: delivery.orderVersion,
      secrets: endpoint.secrets.map((s) => s.secret),
      body: JSON.parse(delivery.payload),
    });
    const open = (this.open.get(endpoint.webhookId) ?? 0) + 1;
    this.open.set(endpoint.webhookId, open);
    this.peak.set(endpoint.webhookId, Math.max(open, this.peak.get(endpoint.webhookId) ?? 0));
    this.peakInAll = Math.max(++this.openInAll, this.peakInAll);
    try {
      return await this.answer(endpoint, delivery);
    } finally {
      this.open.set(endpoint.webhookId, this.open.get(endpoint.webhookId)! - 1);
      this.openInAll -= 1;
    }
  }

  to(webhookId: string): SentRequest[] {
    return this.sent.filter((request) => request.webhookId === webhookId);
  }
}

export interface WebhookWorld {
  readonly world: World;
  readonly sender: FakeSender;
  readonly admin: WebhookAdministration;
  readonly dispatcher: WebhookDispatcher;
  place(): Promise<string>;
  move(orderId: string, status: string, reason?: string): Promise<unknown>;
  /** The relay has published (and enqueued) every stored change. */
  published(): Promise<void>;
  /** Published, then every due delivery sent and recorded (the dispatcher started). */
  delivered(): Promise<void>;
}

/**
 * `ports` may replace ports built on the world's own adapters (a store that fails on purpose); a
 * second world on the same `adapters` is a second instance of the service on a shared store.
 */
export async function aWebhookWorld(
  options: StorefrontOptions = {},
  ports: (adapters: MemoryAdapters) => Partial<StorefrontPorts> = () => ({}),
  shared?: { readonly adapters: MemoryAdapters; readonly clock: FakeClock },
): Promise<WebhookWorld> {
  const sender = new FakeSender();
  const wired: StorefrontOptions = {
    ...options,
    webhooks: { allowHttp: true, ...options.webhooks, dispatcher: { random: () => 0.5, pollMs: 3_600_000, ...options.webhooks?.dispatcher } },
  };
  const clock = shared?.clock ?? new FakeClock();
  const adapters = shared?.adapters ?? createMemoryAdapters({ clock });
  const crypto = cryptoOn(clock);
  const hasher = new CountingHasher(crypto.hasher);
  const storefront = createStorefront({ ...adapters, hasher, tokens: crypto.tokens, clock, webhookSender: sender, ...ports(adapters) }, wired);
  const w: World = { storefront, adapters, clock, hasher, tokens: crypto.tokens };
  const { soup } = shared === undefined ? await withMenu(w) : { soup: (await adapters.menu.list())[0]! };
  const email = shared === undefined ? 'olga@example.com' : `olga-${Math.random().toString(36).slice(2)}@example.com`;
  const owner = await w.storefront.registerCustomer.execute({ email, name: 'Olga', password: 'olga-password' });
  const admin = w.storefront.webhooks;
  const dispatcher = w.storefront.webhookDispatcher;
  if (admin === undefined || dispatcher === undefined) throw new Error('the memory adapters should give the webhook stores');
  const published = () => w.storefront.orderEvents.drain();
  return {
    world: w,
    sender,
    admin,
    dispatcher,
    place: async () => (await w.storefront.placeOrder.execute({ customerId: owner.customerId, items: [{ productId: soup.productId, quantity: 1 }] })).order.orderId,
    move: (orderId, status, reason) => w.storefront.moveOrder.execute({ orderId, status, ...(reason === undefined ? {} : { reason }) }),
    published,
    delivered: async () => {
      await published();
      dispatcher.start();
      dispatcher.notify();
      await dispatcher.settled();
    },
  };
}

/** A receiver URL for the tests (the URL policy of the memory world takes any). */
export const RECEIVER = 'https://pos.example.com/hooks';

/** `inner` with some methods replaced (a store that fails on purpose); the others go to `inner`. */
export function overriding<T extends object>(inner: T, overrides: Partial<T>): T {
  return new Proxy(inner, {
    get(target, key) {
      if (key in overrides) return (overrides as Record<string | symbol, unknown>)[key];
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
