/** Serves createHttpApp on an ephemeral loopback port with memory and real crypto adapters. */
import { createMemoryAdapters, seedDemoData } from '@storefront/adapters-memory';
import { createCryptoAdapters } from '@storefront/adapters-crypto';
import type { Storefront, StorefrontOptions, StorefrontPorts } from '@storefront/domain';
import { createStorefront } from '@storefront/domain';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpApp, type AccessLog, type HttpApp, type HttpAppOptions, type HttpLogger, type PaymentEventsIntake } from '../src/index.js';

export interface LogEntry {
  readonly level: 'info' | 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

export interface TestServer {
  readonly url: string;
  readonly storefront: Storefront;
  readonly app: HttpApp;
  /** The Node server it listens on (a test may watch its sockets). */
  readonly server: Server;
  /** What the app logged (the access lines too, unless `accessLog` replaced them). */
  readonly logs: LogEntry[];
  /** Ends open streams and kept-alive connections, so that the close never waits for them. */
  close(): Promise<void>;
}

/** What a spec may change of the served app beyond the ports. */
export interface ServeSetup {
  /** Default: a request policy generous enough never to limit a test. */
  readonly storefront?: StorefrontOptions;
  readonly app?: HttpAppOptions;
  readonly accessLog?: AccessLog;
  /** The payment provider's events (with a `paymentGateway` among the ports): the route is served. */
  readonly paymentEvents?: PaymentEventsIntake;
}

export async function serve(overrides: Partial<StorefrontPorts> = {}, setup: ServeSetup = {}): Promise<TestServer> {
  const { keyedOrderWrites, ...memory } = createMemoryAdapters();
  // The one-step write of a fresh key goes to the memory stores: not when a test replaces them.
  const oneStep = overrides.orders === undefined && overrides.idempotencyKeys === undefined ? { keyedOrderWrites } : {};
  const ports = { ...memory, ...oneStep, ...createCryptoAdapters({ scrypt: { logN: 10 } }), ...overrides };
  const storefront = createStorefront(ports, setup.storefront ?? { requestPolicy: { name: 'default', limit: 10_000, windowSeconds: 60 } });
  await seedDemoData(storefront);
  const logs: LogEntry[] = [];
  const logger: HttpLogger = {
    info: (fields, message) => logs.push({ level: 'info', fields, message }),
    warn: (fields, message) => logs.push({ level: 'warn', fields, message }),
    error: (fields, message) => logs.push({ level: 'error', fields, message }),
  };
  const app = createHttpApp({
    storefront,
    logger,
    ...(setup.accessLog && { accessLog: setup.accessLog }),
    ...(setup.app && { options: setup.app }),
    ...(setup.paymentEvents && { paymentEvents: setup.paymentEvents }),
  });
  const server: Server = createServer(app.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    storefront,
    app,
    server,
    logs,
    close: () => {
      app.endStreams();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      return closed;
    },
  };
}

export async function loginAs(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login failed with ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
