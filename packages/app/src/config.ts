/**
 * Configuration from the environment: every variable parsed and validated in one place, so that a
 * bad value stops the process at start with a message naming the variable, never later at runtime.
 */
import { isPublicPaserk, isSecretPaserk } from '@storefront/adapters-crypto';
import { parseSmtpUrl } from '@storefront/adapters-mail';
import { createOpeningHours, isValidTimeZone, OpeningHoursError } from '@storefront/adapters-hours';
import { STREAM_LIMITS } from '@storefront/adapters-http';
import { DEMO_ZONES_FILE, DeliveryZonesError, loadZonesFile } from '@storefront/adapters-zones';
import { DEMO_TAXES } from '@storefront/adapters-memory';
import type { DeliveryZones, OpeningHours, RateLimitPolicy, SlotRules } from '@storefront/domain';
import { DEFAULT_LOGIN_POLICY, DEFAULT_POLL_POLICY, DEFAULT_REGISTER_POLICY, DEFAULT_REQUEST_POLICY } from '@storefront/domain';
import { DEFAULT_SLOT_RULES, LOGIN_EMAIL_CEILING_FACTOR, taxRateOf, textFits, type TaxRate, type TaxSettings } from '@storefront/domain/adapter-kit';
import { DEFAULT_MONGODB_TIMEOUT_MS, mongoUriProblem } from '@storefront/adapters-mongo';
import { DEFAULT_PG_POOL_MAX, DEFAULT_PG_TIMEOUT_MS, databaseUrlProblem } from './postgres-settings.js';

export type Env = Readonly<Record<string, string | undefined>>;
export type DatabaseKind = 'memory' | 'mongo' | 'postgres';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface RateLimitConfig {
  readonly max: number;
  readonly windowSeconds: number;
}

export interface ScryptConfig {
  readonly logN: number;
  readonly r: number;
  readonly p: number;
  readonly maxConcurrency: number;
  /** Hashes allowed to wait for their turn; one more is answered 503 at once. */
  readonly maxQueue: number;
  /** A hash still waiting after this is answered 503. */
  readonly maxWaitMs: number;
}

/**
 * Email (password resets). SMTP with SMTP_URL; without it the demo (STOREFRONT_DEMO_DATA) writes
 * each message to the log (it reads the reset link there) and anything else sends none (a reset
 * link is a credential: it must not land in a log outside the demo).
 */
export interface MailConfig {
  /** SMTP_URL, checked at start; it may hold a password, so it is never logged as is. */
  readonly smtpUrl: string | undefined;
  /** MAIL_FROM; default the store's name and `no-reply@` the host of PASSWORD_RESET_URL (`localhost` without it). */
  readonly from: string;
  /** PASSWORD_RESET_URL, the page that takes the token (appended); required with SMTP_URL, else the domain's demo default. */
  readonly passwordResetUrl: string | undefined;
}

/** Where GET /metrics is served (METRICS_PORT, METRICS_HOST): its own listener, never the API's. */
export interface MetricsConfig {
  readonly port: number;
  readonly host: string;
}

export interface StorefrontConfig {
  readonly port: number;
  readonly host: string;
  /** STOREFRONT_STORE (the variable keeps its name): where the data lives. */
  readonly database: DatabaseKind;
  readonly menuFile: string | undefined;
  readonly demoData: boolean;
  readonly rateLimit: RateLimitConfig;
  readonly loginRateLimit: RateLimitConfig;
  /**
   * Login attempts per email from any clients, in LOGIN_RATE_LIMIT_WINDOW_SECONDS
   * (LOGIN_EMAIL_RATE_LIMIT_MAX, default LOGIN_EMAIL_CEILING_FACTOR times LOGIN_RATE_LIMIT_MAX, and
   * never below it): the bound on distributed guessing, high enough that nobody can lock a
   * customer out (docs/security.md).
   */
  readonly loginEmailRateLimitMax: number;
  /** Sign-ups per client address (REGISTER_RATE_LIMIT_MAX, REGISTER_RATE_LIMIT_WINDOW_SECONDS: 5 per hour). */
  readonly registerRateLimit: RateLimitConfig;
  /** Each of GET /api/status and GET /api/rate-limit, per client address (they spend no quota). */
  readonly statusRateLimit: RateLimitConfig;
  readonly scrypt: ScryptConfig;
  /** PASERK k4.secret; undefined → an ephemeral key (memory database only). */
  readonly tokenSecretKey: string | undefined;
  /**
   * PASERK k4.public or k4.secret keys that verify access tokens but never sign them: during a key
   * rotation, the next signing key (before any instance signs with it) and then the previous one
   * (until its tokens have expired). Empty when unset.
   */
  readonly tokenVerifyKeys: readonly string[];
  /** The keys above were read from TOKEN_PREVIOUS_KEYS, the old name of TOKEN_VERIFY_KEYS (a warning at start). */
  readonly tokenVerifyKeysFromOldName: boolean;
  readonly logLevel: LogLevel;
  readonly logPretty: boolean;
  readonly trustProxy: boolean;
  /** With `trustProxy`: the proxies that append to X-Forwarded-For; the client is the entry this many from the right. */
  readonly trustProxyHops: number;
  readonly shutdownTimeoutSeconds: number;
  /** MongoDB connection string naming the database (mongo database only). */
  readonly mongodbUri: string | undefined;
  /** The longest wait of each stage of a MongoDB operation (server selection, pool, socket). */
  readonly mongodbTimeoutMs: number;
  /** PostgreSQL connection URL naming the database (postgres database only). */
  readonly databaseUrl: string | undefined;
  /** Connections the PostgreSQL pool may open (PG_POOL_MAX). */
  readonly pgPoolMax: number;
  /** The longest wait for a pooled PostgreSQL connection, and the bound of every statement (PG_TIMEOUT_MS). */
  readonly pgTimeoutMs: number;
  /** Redis for the shared rate limiter; undefined → the in-process limiter. */
  readonly redisUrl: string | undefined;
  /** A Redis command slower than this fails and the in-process limiter decides instead. */
  readonly redisCommandTimeoutMs: number;
  /** The store's name and currency, as GET /api/store shows them. */
  readonly storeName: string;
  readonly currency: string;
  /** STOREFRONT_TAX_RATE, STOREFRONT_PRICES_INCLUDE_TAX, STOREFRONT_DELIVERY_FEE_TAX_RATE (the demo's with demo data). */
  readonly taxes: TaxSettings;
  /** STOREFRONT_OPENING_HOURS read in STOREFRONT_TIME_ZONE; always open when unset. */
  readonly openingHours: OpeningHours;
  /** STOREFRONT_SLOT_MINUTES, STOREFRONT_PICKUP_LEAD_MINUTES, STOREFRONT_DELIVERY_LEAD_MINUTES, STOREFRONT_SCHEDULE_DAYS, STOREFRONT_SLOT_CAPACITY. */
  readonly slots: SlotRules;
  /** STOREFRONT_DELIVERY_ZONES_FILE (the demo's zones with demo data); null: no delivery. */
  readonly deliveryZones: DeliveryZones | null;
  /** Live event streams one caller may hold open on one instance (STOREFRONT_STREAMS_PER_CALLER, default STREAM_LIMITS.perCaller: 5). */
  readonly streamsPerCaller: number;
  /** Live event streams open on one instance, all callers together (STOREFRONT_STREAMS_MAX, default STREAM_LIMITS.perInstance: 10,000); the next is 503. */
  readonly streamsMax: number;
  /** Prometheus metrics on a port of their own; undefined (METRICS_PORT unset) → off. */
  readonly metrics: MetricsConfig | undefined;
  readonly mail: MailConfig;
  /** The API reference: Swagger UI at GET /docs and the document at GET /openapi.json (STOREFRONT_DOCS, default on). */
  readonly docs: boolean;
  /** The kitchen display at GET /kitchen (STOREFRONT_KITCHEN_PAGE, default on). */
  readonly kitchenPage: boolean;
  readonly webhooks: WebhooksConfig;
  /** Card payments (STOREFRONT_PAYMENTS): none, or Stripe with its keys. */
  readonly payments: PaymentsConfig;
}

/** Stripe's keys and where its API is (STRIPE_*): secrets, handed to the Stripe client only and never logged. */
export interface StripeConfig {
  /** STRIPE_SECRET_KEY: `sk_test_…`, `sk_live_…` or a restricted `rk_…` key. */
  readonly secretKey: string;
  /** STRIPE_WEBHOOK_SECRET: `whsec_…`, the endpoint's signing secret. */
  readonly webhookSecret: string;
  /** STRIPE_API_BASE: Stripe's own API unless a stand-in is named (tests). */
  readonly apiBase: string;
}

/** DECISIONS "Payments": `none` (pay on pickup or delivery) or `stripe` with a payment window. */
export type PaymentsConfig =
  | { readonly provider: 'none' }
  | {
      readonly provider: 'stripe';
      readonly stripe: StripeConfig;
      /** PAYMENT_WINDOW_MINUTES, in ms: how long a customer has to pay before the order is cancelled. */
      readonly windowMs: number;
    };

/** Outgoing webhooks (DECISIONS "Webhooks (outgoing)"). */
export interface WebhooksConfig {
  /** The longest a delivery attempt may take, connecting included (WEBHOOK_TIMEOUT_MS, default 10,000). */
  readonly timeoutMs: number;
  /** `http://` endpoint URLs allowed (WEBHOOK_ALLOW_HTTP, default false: https only). */
  readonly allowHttp: boolean;
  /** Loopback, private, link-local… addresses allowed (WEBHOOK_ALLOW_PRIVATE, default false). */
  readonly allowPrivate: boolean;
  /** Days a delivered or failed delivery is kept, then removed (WEBHOOK_RETENTION_DAYS, default 30). */
  readonly retentionDays: number;
}

export interface ConfigIssue {
  readonly variable: string;
  readonly message: string;
}

/** A configuration that cannot run. Its message names every offending variable, one per line. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super(issues.map((issue) => issue.message).join('\n'));
    this.name = 'ConfigError';
    this.issues = issues;
  }

  static of(variable: string, message: string): ConfigError {
    return new ConfigError([{ variable, message }]);
  }
}

const DATABASES: readonly DatabaseKind[] = ['memory', 'mongo', 'postgres'];
const PAYMENT_PROVIDERS: readonly PaymentsConfig['provider'][] = ['none', 'stripe'];
/** Read only with STOREFRONT_PAYMENTS=stripe; set without it, they would silently do nothing. */
const STRIPE_VARIABLES = ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'PAYMENT_WINDOW_MINUTES'] as const;
const STRIPE_API = 'https://api.stripe.com';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const MAX_LIMIT = 1_000_000_000;
const MAX_WINDOW_SECONDS = 86_400;
/** More proxies than this in front of one service is a mistake, not a topology. */
const MAX_PROXY_HOPS = 10;
/** The largest scrypt memory per operation the hasher will verify (128 · 2^logN · r bytes). */
const MAX_SCRYPT_BYTES = 2 ** 30;
/** The request time-out (http-module.ts): a hash waiting longer would be for a request already answered. */
const MAX_SCRYPT_WAIT_MS = 10_000;

/** Told of every variable read and its default (docs/configuration.md is generated from this: config-reference.ts). */
export type ConfigObserver = (variable: string, fallback: unknown) => void;

export function loadConfig(env: Env, observe?: ConfigObserver): StorefrontConfig {
  const read = new Reader(env, observe);
  const database = read.oneOf('STOREFRONT_STORE', DATABASES, 'memory');
  const memory = database === 'memory';
  const scrypt: ScryptConfig = {
    logN: read.integer('SCRYPT_LOG_N', 17, 10, 20),
    r: read.integer('SCRYPT_R', 8, 1, 32),
    p: read.integer('SCRYPT_P', 1, 1, 16),
    maxConcurrency: read.integer('SCRYPT_MAX_CONCURRENCY', 4, 1, 64),
    maxQueue: read.integer('SCRYPT_MAX_QUEUE', 64, 0, 100_000),
    maxWaitMs: read.integer('SCRYPT_MAX_WAIT_MS', 1000, 0, MAX_SCRYPT_WAIT_MS),
  };
  if (128 * 2 ** scrypt.logN * scrypt.r > MAX_SCRYPT_BYTES) {
    read.fail('SCRYPT_R', `SCRYPT_LOG_N=${scrypt.logN} with SCRYPT_R=${scrypt.r} needs more than 1 GiB per hash; lower one of them`);
  }
  const trustProxy = read.boolean('TRUST_PROXY', false);
  // Hops without trust would be ignored, and every client would share the load balancer's quota.
  if (!trustProxy && read.isSet('TRUST_PROXY_HOPS')) read.fail('TRUST_PROXY_HOPS', 'TRUST_PROXY_HOPS is set but TRUST_PROXY is not true; set TRUST_PROXY=true or unset TRUST_PROXY_HOPS');
  const verifyKeys = read.verificationKeys('TOKEN_VERIFY_KEYS');
  const oldNameKeys = read.verificationKeys('TOKEN_PREVIOUS_KEYS');
  if (verifyKeys.length > 0 && oldNameKeys.length > 0) {
    read.fail('TOKEN_PREVIOUS_KEYS', 'TOKEN_PREVIOUS_KEYS is the old name of TOKEN_VERIFY_KEYS and both are set: move its keys into TOKEN_VERIFY_KEYS and unset it');
  }
  const port = read.integer('PORT', 3000, 0, 65_535);
  const storeName = read.text('STOREFRONT_NAME', 'Storefront', 100);
  const metrics = read.metrics('METRICS_PORT', 'METRICS_HOST', port);
  const demoData = read.boolean('STOREFRONT_DEMO_DATA', memory);
  const loginMax = read.integer('LOGIN_RATE_LIMIT_MAX', DEFAULT_LOGIN_POLICY.limit, 1, MAX_LIMIT);
  const config: StorefrontConfig = {
    port,
    host: read.string('HOST', '0.0.0.0'),
    database,
    menuFile: read.optionalString('STOREFRONT_MENU_FILE'),
    demoData,
    // The defaults are the domain's (DEFAULT_*_POLICY): one place says what an unset variable means.
    rateLimit: readPolicy(read, 'RATE_LIMIT', DEFAULT_REQUEST_POLICY),
    loginRateLimit: { max: loginMax, windowSeconds: read.integer('LOGIN_RATE_LIMIT_WINDOW_SECONDS', DEFAULT_LOGIN_POLICY.windowSeconds, 1, MAX_WINDOW_SECONDS) },
    loginEmailRateLimitMax: read.integer('LOGIN_EMAIL_RATE_LIMIT_MAX', Math.min(MAX_LIMIT, loginMax * LOGIN_EMAIL_CEILING_FACTOR), loginMax, MAX_LIMIT),
    registerRateLimit: readPolicy(read, 'REGISTER_RATE_LIMIT', DEFAULT_REGISTER_POLICY),
    statusRateLimit: readPolicy(read, 'STATUS_RATE_LIMIT', DEFAULT_POLL_POLICY),
    scrypt,
    tokenSecretKey: read.secretKey('TOKEN_SECRET_KEY', database),
    tokenVerifyKeys: verifyKeys.length > 0 ? verifyKeys : oldNameKeys,
    tokenVerifyKeysFromOldName: verifyKeys.length === 0 && oldNameKeys.length > 0,
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logPretty: read.boolean('LOG_PRETTY', false),
    trustProxy,
    trustProxyHops: read.integer('TRUST_PROXY_HOPS', 1, 1, MAX_PROXY_HOPS),
    shutdownTimeoutSeconds: read.integer('SHUTDOWN_TIMEOUT_SECONDS', 10, 0, 3600),
    mongodbUri: database === 'mongo' ? read.mongoUri('MONGODB_URI') : undefined,
    // Below the 10 s request time-out, so that a stalled MongoDB fails the operation (and frees its
    // pooled connection) before the request is answered 503 without it.
    mongodbTimeoutMs: read.integer('MONGODB_TIMEOUT_MS', DEFAULT_MONGODB_TIMEOUT_MS, 100, 10_000),
    databaseUrl: database === 'postgres' ? read.databaseUrl('DATABASE_URL') : undefined,
    pgPoolMax: read.integer('PG_POOL_MAX', DEFAULT_PG_POOL_MAX, 1, 1_000),
    // Below the 10 s request time-out, as MONGODB_TIMEOUT_MS: a stalled PostgreSQL fails the
    // statement (and frees its connection) before the request is answered 503 without it.
    pgTimeoutMs: read.integer('PG_TIMEOUT_MS', DEFAULT_PG_TIMEOUT_MS, 100, 10_000),
    redisUrl: read.url('REDIS_URL', ['redis:', 'rediss:']),
    redisCommandTimeoutMs: read.integer('REDIS_COMMAND_TIMEOUT_MS', 100, 10, 60_000),
    streamsPerCaller: read.integer('STOREFRONT_STREAMS_PER_CALLER', STREAM_LIMITS.perCaller, 1, 100_000),
    streamsMax: read.integer('STOREFRONT_STREAMS_MAX', STREAM_LIMITS.perInstance, 1, 1_000_000),
    storeName,
    currency: read.pattern('STOREFRONT_CURRENCY', 'USD', /^[A-Z]{3}$/, 'an ISO 4217 code in capitals, e.g. USD'),
    taxes: read.taxes(demoData),
    openingHours: read.openingHours('STOREFRONT_OPENING_HOURS', 'STOREFRONT_TIME_ZONE'),
    slots: read.slots(),
    deliveryZones: read.deliveryZones('STOREFRONT_DELIVERY_ZONES_FILE', demoData),
    metrics,
    mail: read.mail(storeName, database),
    docs: read.boolean('STOREFRONT_DOCS', true),
    kitchenPage: read.boolean('STOREFRONT_KITCHEN_PAGE', true),
    webhooks: {
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      allowHttp: read.boolean('WEBHOOK_ALLOW_HTTP', false),
      allowPrivate: read.boolean('WEBHOOK_ALLOW_PRIVATE', false),
      retentionDays: read.integer('WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    },
    payments: read.payments(),
  };
  read.throwIfAny();
  return config;
}

/** `<PREFIX>_MAX` and `<PREFIX>_WINDOW_SECONDS`, each defaulting to the policy's own. */
function readPolicy(read: Reader, prefix: string, defaults: RateLimitPolicy): { max: number; windowSeconds: number } {
  return {
    max: read.integer(`${prefix}_MAX`, defaults.limit, 1, MAX_LIMIT),
    windowSeconds: read.integer(`${prefix}_WINDOW_SECONDS`, defaults.windowSeconds, 1, MAX_WINDOW_SECONDS),
  };
}

/** Reads variables, collecting every problem so that one start-up reports them all. */
class Reader {
  private readonly issues: ConfigIssue[] = [];

  constructor(private readonly env: Env, private readonly observe: ConfigObserver = () => {}) {}

  fail(variable: string, message: string): void {
    this.issues.push({ variable, message });
  }

  throwIfAny(): void {
    if (this.issues.length > 0) throw new ConfigError(this.issues);
  }

  /** The trimmed value; unset and blank both mean "use the default". */
  private raw(name: string, fallback?: unknown): string | undefined {
    this.observe(name, fallback);
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  isSet(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  string(name: string, fallback: string): string {
    return this.raw(name, fallback) ?? fallback;
  }

  optionalString(name: string): string | undefined {
    return this.raw(name);
  }

  /** One line of text (TEXT_RULE): the store's name is shown on pages and goes into mail headers. */
  text(name: string, fallback: string, maxLength: number): string {
    const value = this.raw(name, fallback) ?? fallback;
    if (value.length <= maxLength && textFits(value, 'line')) return value;
    this.fail(name, `${name} must be one line of at most ${maxLength} characters: no control characters or bidirectional overrides`);
    return fallback;
  }

  pattern(name: string, fallback: string, pattern: RegExp, expected: string): string {
    const value = this.raw(name, fallback);
    if (value === undefined) return fallback;
    if (pattern.test(value)) return value;
    this.fail(name, `${name} must be ${expected}, got ${quote(value)}`);
    return fallback;
  }

  /**
   * The schedule parsed once here (by the opening_hours library, in @storefront/adapters-hours), so
   * that a schedule or zone it cannot read stops the start naming the variable.
   */
  openingHours(scheduleName: string, zoneName: string): OpeningHours {
    const zone = this.raw(zoneName, 'UTC') ?? 'UTC';
    const schedule = this.raw(scheduleName);
    if (!isValidTimeZone(zone)) {
      this.fail(zoneName, `${zoneName} must be an IANA time zone such as Europe/Berlin, got ${quote(zone)}`);
      return createOpeningHours(undefined, 'UTC');
    }
    try {
      return createOpeningHours(schedule, zone);
    } catch (error) {
      if (!(error instanceof OpeningHoursError)) throw error;
      this.fail(scheduleName, `${scheduleName} is not OpenStreetMap opening_hours syntax (e.g. "Mo-Fr 11:00-22:00; Sa,Su 12:00-23:00"): ${error.message}`);
      return createOpeningHours(undefined, zone);
    }
  }

  /**
   * How orders are taxed. Unset, a store taxes nothing, tax added on top; with demo data, the demo's
   * Berlin settings (DEMO_TAXES: 19 %, prices with tax). The delivery fee's rate defaults to the store's.
   */
  taxes(demoData: boolean): TaxSettings {
    const defaults = demoData ? DEMO_TAXES : { rate: taxRateOf(0), pricesIncludeTax: false };
    const rate = this.taxRate('STOREFRONT_TAX_RATE', defaults.rate);
    return {
      rate,
      pricesIncludeTax: this.boolean('STOREFRONT_PRICES_INCLUDE_TAX', defaults.pricesIncludeTax),
      deliveryFeeRate: this.taxRate('STOREFRONT_DELIVERY_FEE_TAX_RATE', rate),
    };
  }

  /** A rate in basis points, held to the domain's TAX_RATE_RULE. */
  taxRate(name: string, fallback: TaxRate): TaxRate {
    const value = this.raw(name, fallback);
    if (value === undefined) return fallback;
    try {
      return taxRateOf(/^\d+$/.test(value) ? Number(value) : Number.NaN);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      this.fail(name, `${name} ${error.message}, got ${quote(value)}`);
      return fallback;
    }
  }

  /** Slot length (a divisor of a day, 5 to 240 minutes), lead times, horizon and capacity (unset: no limit). */
  slots(): SlotRules {
    const d = DEFAULT_SLOT_RULES;
    const slotMinutes = this.integer('STOREFRONT_SLOT_MINUTES', d.slotMinutes, 5, 240);
    if (1440 % slotMinutes !== 0) this.fail('STOREFRONT_SLOT_MINUTES', `STOREFRONT_SLOT_MINUTES must divide a day (1440 minutes), e.g. 10, 15, 20, 30 or 60, got ${slotMinutes}`);
    return {
      slotMinutes,
      pickupLeadMinutes: this.integer('STOREFRONT_PICKUP_LEAD_MINUTES', d.pickupLeadMinutes, 0, 10_080),
      deliveryLeadMinutes: this.integer('STOREFRONT_DELIVERY_LEAD_MINUTES', d.deliveryLeadMinutes, 0, 10_080),
      scheduleDays: this.integer('STOREFRONT_SCHEDULE_DAYS', d.scheduleDays, 1, 90),
      capacity: this.isSet('STOREFRONT_SLOT_CAPACITY') ? this.integer('STOREFRONT_SLOT_CAPACITY', 1, 1, 100_000) : d.capacity,
    };
  }

  /** The zones file read and checked now, so that a bad one stops the start naming the variable. */
  deliveryZones(name: string, demoData: boolean): DeliveryZones | null {
    const path = this.raw(name) ?? (demoData ? DEMO_ZONES_FILE : undefined);
    if (path === undefined) return null;
    try {
      return loadZonesFile(path);
    } catch (error) {
      if (!(error instanceof DeliveryZonesError)) throw error;
      this.fail(name, `${name} is not a usable GeoJSON FeatureCollection of delivery zones: ${error.message}`);
      return null;
    }
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name, fallback);
    if (value === undefined) return fallback;
    const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isSafeInteger(parsed) && parsed >= min && parsed <= max) return parsed;
    const expected = min === 1 && max >= MAX_LIMIT ? 'a positive integer' : `an integer from ${min} to ${max}`;
    this.fail(name, `${name} must be ${expected}, got ${quote(value)}`);
    return fallback;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name, fallback)?.toLowerCase();
    if (value === undefined) return fallback;
    if (value === 'true' || value === '1') return true;
    if (value === 'false' || value === '0') return false;
    this.fail(name, `${name} must be true, false, 1 or 0, got ${quote(this.raw(name) ?? '')}`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const value = this.raw(name, fallback);
    if (value === undefined) return fallback;
    const match = allowed.find((candidate) => candidate === value.toLowerCase());
    if (match !== undefined) return match;
    this.fail(name, `${name} must be one of ${allowed.join(', ')}, got ${quote(value)}`);
    return fallback;
  }

  /** Required with the mongo database, and must name the database (else the driver would use `test`). */
  mongoUri(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) {
      this.fail(name, `${name} is required with STOREFRONT_STORE=mongo, e.g. mongodb://db-1,db-2,db-3/storefront?replicaSet=rs0`);
      return undefined;
    }
    // Not WHATWG URL parsing: a replica-set string lists several host:port pairs.
    if (!/^mongodb(\+srv)?:\/\/[^/\s]+\/[^/?\s]+/.test(value)) {
      this.fail(name, `${name} must be mongodb://hosts/database or mongodb+srv://host/database, e.g. mongodb://db-1:27017,db-2:27017/storefront?replicaSet=rs0; the value given is not`);
      return undefined;
    }
    const problem = mongoUriProblem(value);
    if (problem !== undefined) {
      this.fail(name, `${name} cannot be used: ${problem}`);
      return undefined;
    }
    return value;
  }

  /** Required with the postgres database; a postgres:// URL naming its database (else `pg` would pick the user's name). */
  databaseUrl(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) {
      this.fail(name, `${name} is required with STOREFRONT_STORE=postgres, e.g. postgres://storefront:secret@db.internal:5432/storefront`);
      return undefined;
    }
    const problem = databaseUrlProblem(value);
    if (problem === undefined) return value;
    this.fail(name, `${name} cannot be used: ${problem}`);
    return undefined;
  }

  /**
   * Off unless the port is set. The host defaults to loopback, not HOST: the metrics tell the
   * traffic and the process's insides, and only the scraper needs them (a container sets 0.0.0.0).
   */
  metrics(portName: string, hostName: string, apiPort: number): MetricsConfig | undefined {
    if (!this.isSet(portName)) {
      if (this.isSet(hostName)) this.fail(hostName, `${hostName} is set but ${portName} is not; set ${portName} to serve metrics or unset ${hostName}`);
      return undefined;
    }
    const port = this.integer(portName, 0, 0, 65_535);
    if (port !== 0 && port === apiPort) this.fail(portName, `${portName} must differ from PORT (${apiPort}): metrics have a listener of their own`);
    return { port, host: this.string(hostName, '127.0.0.1') };
  }

  /**
   * SMTP_URL (checked by the mail adapter's parser, whose messages never echo the password),
   * PASSWORD_RESET_URL and MAIL_FROM. With SMTP_URL and a persistent database (production) PASSWORD_RESET_URL is
   * required: a real customer must not get the demo's localhost link. In memory mode (demos, tests
   * against a local mail catcher) it defaults to the demo's link, and the start says so.
   */
  mail(storeName: string, database: DatabaseKind): MailConfig {
    let smtpUrl = this.raw('SMTP_URL');
    if (smtpUrl !== undefined) {
      try {
        parseSmtpUrl(smtpUrl);
      } catch (error) {
        this.fail('SMTP_URL', (error as Error).message);
        smtpUrl = undefined;
      }
    }
    const passwordResetUrl = this.url('PASSWORD_RESET_URL', ['https:', 'http:']);
    if (database !== 'memory' && this.isSet('SMTP_URL') && !this.isSet('PASSWORD_RESET_URL')) {
      this.fail('PASSWORD_RESET_URL', `PASSWORD_RESET_URL is required with SMTP_URL and ${database === 'mongo' ? 'MONGODB_URI' : 'DATABASE_URL'}: the page of your front end that takes the reset token, appended, e.g. https://shop.example/reset?token=`);
    }
    return { smtpUrl, from: this.mailFrom('MAIL_FROM', storeName, passwordResetUrl), passwordResetUrl };
  }

  /** `addr@host` or `Name <addr@host>`, on one line (a line break would inject headers). */
  private mailFrom(name: string, storeName: string, passwordResetUrl: string | undefined): string {
    const value = this.raw(name);
    if (value === undefined) return defaultMailFrom(storeName, passwordResetUrl);
    if (/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(value)) return value;
    this.fail(name, `${name} must be an address such as no-reply@shop.example or "Shop <no-reply@shop.example>", got ${quote(value)}`);
    return defaultMailFrom(storeName, passwordResetUrl);
  }

  /** A URL with one of `protocols`; the value is not echoed (it may hold a password). */
  url(name: string, protocols: readonly string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== undefined && protocols.includes(protocol)) return value;
    this.fail(name, `${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}; the value given is not`);
    return undefined;
  }

  /**
   * STOREFRONT_PAYMENTS and, with `stripe`, its keys (required; never echoed), its API's origin
   * and the payment window. The Stripe variables set without `stripe` stop the start: they would
   * otherwise do nothing while the operator believes customers pay by card.
   */
  payments(): PaymentsConfig {
    const provider = this.oneOf('STOREFRONT_PAYMENTS', PAYMENT_PROVIDERS, 'none');
    if (provider === 'none') {
      for (const name of STRIPE_VARIABLES) {
        if (this.peek(name) !== undefined) this.fail(name, `${name} is set but STOREFRONT_PAYMENTS is not stripe; set STOREFRONT_PAYMENTS=stripe or unset ${name}`);
      }
      return { provider };
    }
    const secretKey = this.stripeKey('STRIPE_SECRET_KEY');
    const webhookSecret = this.required('STRIPE_WEBHOOK_SECRET', /^whsec_[A-Za-z0-9+/=]+$/, 'the webhook endpoint\'s signing secret (whsec_…, shown by the Dashboard or `stripe listen`)');
    const apiBase = this.origin('STRIPE_API_BASE', STRIPE_API);
    // A live key is sent to Stripe itself, never over plain HTTP to a stand-in.
    if (secretKey.includes('_live_') && new URL(apiBase).protocol !== 'https:') this.fail('STRIPE_API_BASE', 'STRIPE_API_BASE must be https:// with a live STRIPE_SECRET_KEY');
    const windowMinutes = this.integer('PAYMENT_WINDOW_MINUTES', 15, 1, 1440);
    return { provider, stripe: { secretKey, webhookSecret, apiBase }, windowMs: windowMinutes * 60_000 };
  }

  /** A Stripe secret or restricted key; the value is never echoed (a publishable one is named as such). */
  private stripeKey(name: string): string {
    const value = this.raw(name);
    if (value !== undefined && /^(sk|rk)_(test|live)_[A-Za-z0-9]+$/.test(value)) return value;
    if (value === undefined) this.fail(name, `${name} is required with STOREFRONT_PAYMENTS=stripe: the account's secret key (sk_test_… or sk_live_…, or a restricted rk_… key)`);
    else if (value.startsWith('pk_')) this.fail(name, `${name} must be a secret key (sk_…), not the publishable one (pk_…), which belongs to the front end`);
    else this.fail(name, `${name} must be a Stripe secret key (sk_test_…, sk_live_…) or restricted key (rk_…); the value given is not`);
    return '';
  }

  /** A value that must be set and match `pattern`; never echoed (a secret). */
  private required(name: string, pattern: RegExp, expected: string): string {
    const value = this.raw(name);
    if (value !== undefined && pattern.test(value)) return value;
    this.fail(name, value === undefined ? `${name} is required with STOREFRONT_PAYMENTS=stripe: ${expected}` : `${name} must be ${expected}; the value given is not`);
    return '';
  }

  /** An http(s) origin (scheme, host, optional port; no path), as the Stripe client takes its base. */
  private origin(name: string, fallback: string): string {
    const value = this.raw(name, fallback);
    if (value === undefined) return fallback;
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    const bare = url !== undefined && url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    if (url !== undefined && bare && (url.protocol === 'https:' || url.protocol === 'http:')) return url.origin;
    this.fail(name, `${name} must be an http(s) origin with no path, e.g. https://api.stripe.com or http://127.0.0.1:12111; the value given is not`);
    return fallback;
  }

  /** Whether a variable is set, without counting it as read (a variable only read in another mode). */
  private peek(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  /** Never echoes the value: it is a secret, and error messages end up in logs. */
  secretKey(name: string, database: DatabaseKind): string | undefined {
    const value = this.raw(name);
    if (value === undefined) {
      if (database !== 'memory') this.fail(name, `${name} is required with STOREFRONT_STORE=${database}: a PASERK k4.secret key (k4.secret.…)`);
      return undefined;
    }
    if (isSecretPaserk(value)) return value;
    this.fail(name, `${name} must be a PASERK k4.secret key ("k4.secret." followed by 86 base64url characters); the value given is not`);
    return undefined;
  }

  /** A comma-separated list of PASERK k4.public / k4.secret keys. Never echoes a value (k4.secret is a secret). */
  verificationKeys(name: string): readonly string[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    const keys = value.split(',').map((key) => key.trim());
    const bad = keys.flatMap((key, i) => (isPublicPaserk(key) || isSecretPaserk(key) ? [] : [i + 1]));
    if (bad.length === 0) return keys;
    const which = keys.length === 1 ? 'the value given is not' : `entr${bad.length === 1 ? 'y' : 'ies'} ${bad.join(', ')} of ${keys.length} ${bad.length === 1 ? 'is' : 'are'} not`;
    this.fail(name, `${name} must be a comma-separated list of PASERK k4.public or k4.secret keys; ${which}`);
    return [];
  }
}

/**
 * The sender when MAIL_FROM is unset: the store's name, and `no-reply@` the domain customers know
 * from the reset link (the operator's front end), so that the mail says where it comes from.
 */
function defaultMailFrom(storeName: string, passwordResetUrl: string | undefined): string {
  const hostname = passwordResetUrl === undefined ? 'localhost' : new URL(passwordResetUrl).hostname;
  // An address literal needs brackets after the @ (RFC 5321); URL keeps an IPv6 one's already.
  const domain = /^[\d.]+$/.test(hostname) ? `[${hostname}]` : hostname.startsWith('[') ? `[IPv6:${hostname.slice(1)}` : hostname;
  return `"${storeName.replace(/["\\]/g, '\\$&')}" <no-reply@${domain}>`;
}

function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
