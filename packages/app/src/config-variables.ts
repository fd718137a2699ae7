/**
 * What each configuration variable means: the one part of docs/configuration.md written by hand.
 * Its names, defaults and bad-value messages come from config.ts itself (config-reference.ts); a
 * `default` or `bad` here replaces what that cannot show (a default computed from another variable,
 * a value that is only checked when it is used). A variable config.ts reads but this does not
 * describe fails the configuration-doc test: add one line, then `pnpm docs:config`.
 */
export interface VariableNote {
  readonly meaning: string;
  readonly default?: string;
  readonly bad?: string;
}

export const VARIABLE_NOTES: Readonly<Record<string, VariableNote>> = {
  DATABASE_URL: { meaning: 'PostgreSQL connection URL naming the database, e.g. `postgres://storefront:secret@db:5432/storefront` (PostgreSQL 14+).', default: 'unset; required with `STOREFRONT_STORE=postgres`' },
  HOST: { meaning: 'Address the API listens on.', bad: 'Not checked in advance: an address the machine does not have makes the listen fail, and the process exits 1 (`storefront failed to start`, logged).' },
  LOG_LEVEL: { meaning: 'Least severe log line written (pino levels).' },
  LOG_PRETTY: { meaning: 'Human-readable log lines instead of JSON (needs the dev dependency pino-pretty).' },
  LOGIN_EMAIL_RATE_LIMIT_MAX: { meaning: 'Login attempts per email from all clients together, per `LOGIN_RATE_LIMIT_WINDOW_SECONDS`; never below `LOGIN_RATE_LIMIT_MAX`.', default: '10 × `LOGIN_RATE_LIMIT_MAX` (`100`)' },
  LOGIN_RATE_LIMIT_MAX: { meaning: 'Login attempts per client address per window.' },
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: { meaning: 'Window of both login limits, in seconds.' },
  MAIL_FROM: { meaning: 'Sender of password-reset mail.', default: 'the store\'s name and `no-reply@` the host of `PASSWORD_RESET_URL` (`localhost` without it)' },
  METRICS_HOST: { meaning: 'Address of the Prometheus metrics listener (set `0.0.0.0` in a container).', default: '`127.0.0.1` (only with `METRICS_PORT`)', bad: 'Set without `METRICS_PORT`: stops the start naming both. An address the machine does not have: the metrics listen fails at start and the process exits 1.' },
  METRICS_PORT: { meaning: 'Port of `GET /metrics` (Prometheus), a listener of its own; must differ from `PORT`.', default: 'unset: no metrics' },
  MONGODB_TIMEOUT_MS: { meaning: 'Longest wait of each stage of a MongoDB operation (server selection, pool, socket).' },
  MONGODB_URI: { meaning: 'MongoDB connection string naming the database, e.g. `mongodb://db-1,db-2,db-3/storefront?replicaSet=rs0`.', default: 'unset; required with `STOREFRONT_STORE=mongo`' },
  PASSWORD_RESET_URL: { meaning: 'The page of your front end that takes a reset token (appended).', default: 'the demo\'s link in memory mode; required with `SMTP_URL` and a persistent store' },
  PG_POOL_MAX: { meaning: 'Connections the PostgreSQL pool may open, per instance.' },
  PG_TIMEOUT_MS: { meaning: 'Longest wait for a pooled PostgreSQL connection, and the bound of every statement.' },
  PORT: { meaning: 'Port of the HTTP API (`0`: any free port).' },
  RATE_LIMIT_MAX: { meaning: 'Requests per caller (customer, else client address) per window.' },
  RATE_LIMIT_WINDOW_SECONDS: { meaning: 'Window of the request limit, in seconds (sliding).' },
  REDIS_COMMAND_TIMEOUT_MS: { meaning: 'A Redis command slower than this fails and the in-process limiter decides instead.' },
  REDIS_URL: { meaning: 'Redis for the shared rate limiter and the live event log (needed by several instances).', default: 'unset: in-process limiter and events (one instance)' },
  REGISTER_RATE_LIMIT_MAX: { meaning: 'Sign-ups per client address per window.' },
  REGISTER_RATE_LIMIT_WINDOW_SECONDS: { meaning: 'Window of the sign-up limit, in seconds.' },
  SCRYPT_LOG_N: { meaning: 'scrypt cost of password hashes (log2 N); tests lower it.' },
  SCRYPT_MAX_CONCURRENCY: { meaning: 'Password hashes computed at once.' },
  SCRYPT_MAX_QUEUE: { meaning: 'Password hashes that may wait their turn; one more is answered 503.' },
  SCRYPT_MAX_WAIT_MS: { meaning: 'A hash still waiting after this is answered 503.' },
  SCRYPT_P: { meaning: 'scrypt parallelisation of password hashes.' },
  SCRYPT_R: { meaning: 'scrypt block size of password hashes; with `SCRYPT_LOG_N` at most 1 GiB per hash.' },
  SHUTDOWN_TIMEOUT_SECONDS: { meaning: 'On SIGTERM: how long requests in flight may finish before connections are closed.' },
  SMTP_URL: { meaning: 'SMTP server for password-reset mail, `smtp://user:password@host:587` or `smtps://…:465`; never logged.', default: 'unset: demo data writes mail to the log, otherwise none is sent' },
  STATUS_RATE_LIMIT_MAX: { meaning: 'Requests to each of `/api/status` and `/api/rate-limit` per client address per window (they spend no quota).' },
  STATUS_RATE_LIMIT_WINDOW_SECONDS: { meaning: 'Window of that limit, in seconds.' },
  STOREFRONT_CURRENCY: { meaning: 'The store\'s ISO 4217 currency.' },
  STOREFRONT_DELIVERY_LEAD_MINUTES: { meaning: 'Earliest delivery slot, in minutes from now.' },
  STOREFRONT_DELIVERY_ZONES_FILE: { meaning: 'GeoJSON FeatureCollection of delivery zones with fee and minimum order.', default: 'the demo\'s zones with demo data; otherwise unset: no delivery' },
  STOREFRONT_DEMO_DATA: { meaning: 'Load the demo menu and accounts at start.', default: '`true` with the memory store, else `false`' },
  STOREFRONT_DOCS: { meaning: 'Serve the API reference at `/docs` and `/openapi.json`.' },
  STOREFRONT_KITCHEN_PAGE: { meaning: 'Serve the kitchen display at `/kitchen`.' },
  STOREFRONT_MENU_FILE: { meaning: 'A menu file (JSON) loaded at start; a product\'s `available` is taken from it only when the product is created.', bad: 'Not checked with the others: read when the store is seeded (at start; with a persistent store once it is up); a file that cannot be read or is not a menu stops the process with exit 1 and the reason.' },
  STOREFRONT_NAME: { meaning: 'The store\'s name (`GET /api/store`, mail sender).' },
  STOREFRONT_OPENING_HOURS: { meaning: 'Opening hours in OpenStreetMap `opening_hours` syntax, e.g. `Mo-Fr 11:00-22:00; Sa,Su 12:00-23:00`.', default: 'unset: always open' },
  STOREFRONT_PICKUP_LEAD_MINUTES: { meaning: 'Earliest pickup slot, in minutes from now.' },
  STOREFRONT_SCHEDULE_DAYS: { meaning: 'How many days ahead an order may be scheduled.' },
  STOREFRONT_SLOT_CAPACITY: { meaning: 'Orders per slot.', default: 'unset: no limit' },
  STOREFRONT_SLOT_MINUTES: { meaning: 'Length of a pickup/delivery slot in minutes; divides a day.' },
  STOREFRONT_STORE: { meaning: 'Where data lives: `memory` (demo, one process), `postgres` or `mongo`.' },
  STOREFRONT_STREAMS_MAX: { meaning: 'Live event streams open on one instance; the next is 503.' },
  STOREFRONT_STREAMS_PER_CALLER: { meaning: 'Live event streams one caller may hold open on one instance.' },
  STOREFRONT_TIME_ZONE: { meaning: 'IANA time zone of the opening hours, e.g. `Europe/Berlin`.' },
  TOKEN_PREVIOUS_KEYS: { meaning: 'Old name of `TOKEN_VERIFY_KEYS` (a warning at start; both set stops the start).' },
  TOKEN_SECRET_KEY: { meaning: 'PASERK `k4.secret` key that signs access tokens (`storefront keys generate`); the same on every instance; never logged.', default: 'unset: an ephemeral key (memory store only; required with `postgres` or `mongo`)' },
  TOKEN_VERIFY_KEYS: { meaning: 'Comma-separated PASERK `k4.public`/`k4.secret` keys that verify but never sign: key rotation.' },
  TRUST_PROXY: { meaning: 'Take the client address from `X-Forwarded-For` (behind a load balancer).' },
  TRUST_PROXY_HOPS: { meaning: 'With `TRUST_PROXY`: proxies that append to `X-Forwarded-For`.' },
  WEBHOOK_ALLOW_HTTP: { meaning: 'Allow `http://` webhook endpoints (else https only).' },
  WEBHOOK_ALLOW_PRIVATE: { meaning: 'Allow webhook endpoints on loopback, private and link-local addresses.' },
  WEBHOOK_TIMEOUT_MS: { meaning: 'Longest a webhook delivery attempt may take, connecting included.' },
  WEBHOOK_RETENTION_DAYS: { meaning: 'Days a delivered or failed webhook delivery (with its order) is kept after it finished, then removed.' },
};
