/**
 * `pnpm start`: runs one Storefront process until SIGTERM or SIGINT, then closes gracefully.
 * A configuration error prints its message alone (no stack trace) and exits 1.
 */
import 'reflect-metadata';

// The opening-hours library reads dates by local time; @storefront/adapters-hours converts to the
// store's STOREFRONT_TIME_ZONE from any process zone, except for a boundary inside the process
// zone's own daylight-saving gap (read up to an hour late once a year). The service itself never
// uses local time, so it runs in UTC and that case cannot arise.
process.env.TZ = 'UTC';
import { pino } from 'pino';
import { ConfigError } from './config.js';
import { startStorefront, type RunningStorefront } from './server.js';

/** Fatal errors go to stderr as JSON, whatever LOG_LEVEL says. */
const fatalLog = pino({ base: { service: 'storefront' } }, pino.destination({ fd: 2, sync: true }));

function fail(error: unknown, message: string): never {
  fatalLog.fatal({ err: error }, message);
  process.exit(1);
}

process.on('uncaughtException', (error) => fail(error, 'uncaught exception'));
process.on('unhandledRejection', (reason) => fail(reason, 'unhandled rejection'));

let running: RunningStorefront;
try {
  running = await startStorefront(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`storefront: configuration error\n${error.message}\n`);
    process.exit(1);
  }
  fail(error, 'storefront failed to start');
}

// A database that can never serve (MongoDB refuses MONGODB_URI for good) stops the process, as a bad
// variable does at start; a database that is only unreachable is retried in the background meanwhile.
running.ready.catch((error: unknown) => {
  if (!(error instanceof ConfigError)) return; // logged; the server keeps serving what it can
  process.stderr.write(`storefront: configuration error\n${error.message}\n`);
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1); // a second signal: stop waiting
    stopping = true;
    running.close().then(
      () => process.exit(0),
      (error: unknown) => fail(error, 'graceful shutdown failed'),
    );
  });
}
