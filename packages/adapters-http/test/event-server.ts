/**
 * The live order streams on a real socket: createHttpApp over the memory adapters, with the stream
 * timings and the event log's window a test chooses, and shortcuts to place and move orders and to
 * open a stream with fetch.
 */
import { InMemoryOrderEventLog, type InMemoryOrderEventLogOptions } from '@storefront/adapters-memory';
import type { Caller, Order, Storefront, StorefrontPorts } from '@storefront/domain';
import { SseReader } from '@storefront/testing';
import type { EventStreamsOptions } from '../src/sse/event-streams.js';
import { serve, type TestServer } from './support.js';

export type EventServer = TestServer;

export interface EventServerOptions {
  readonly streams?: EventStreamsOptions;
  readonly log?: InMemoryOrderEventLogOptions;
  readonly ports?: Partial<StorefrontPorts>;
}

export async function serveEvents(options: EventServerOptions = {}): Promise<EventServer> {
  const ports = { events: new InMemoryOrderEventLog(options.log), ...options.ports };
  // The relay's sweep runs as in the app, quickly: it publishes what a notification missed.
  const server = await serve(ports, {
    storefront: { requestPolicy: { name: 'default', limit: 100_000, windowSeconds: 60 }, events: { sweepMs: 10 } },
    app: { streams: options.streams },
    accessLog: () => undefined,
  });
  server.storefront.orderEvents.start();
  return { ...server, close: () => server.close().then(() => server.storefront.orderEvents.stop()) };
}

/** A logged-in demo account: its token and its caller. */
export async function signIn(storefront: Storefront, who: 'alice' | 'bob' | 'kitchen'): Promise<{ token: string; caller: Caller }> {
  const pair = await storefront.login.execute({ email: `${who}@example.com`, password: `${who}-password`, client: 'test' });
  return { token: pair.accessToken, caller: await storefront.authenticate.execute(pair.accessToken) };
}

/** An order of `customerId`, placed (version 1). */
export async function placeFor(storefront: Storefront, customerId: string): Promise<Order> {
  const product = (await storefront.listMenu.execute()).products.find((p) => p.available)!;
  return (await storefront.placeOrder.execute({ customerId, items: [{ productId: product.productId, quantity: 1 }] })).order;
}

export interface OpenedStream {
  readonly res: Response;
  readonly events: SseReader;
}

/** GET `path` with the token as a Bearer and any other headers; the reader when it answered a stream. */
export async function openStream(url: string, path: string, token: string | undefined, headers: Record<string, string> = {}): Promise<OpenedStream> {
  const all = token === undefined ? headers : { ...headers, Authorization: `Bearer ${token}` };
  const res = await fetch(url + path, { headers: all });
  return { res, events: new SseReader(res) };
}
