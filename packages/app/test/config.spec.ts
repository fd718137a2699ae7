import { describe, it } from 'mocha';
import { expect } from 'chai';
import { generateSigningKey, PasetoTokenService } from '@storefront/adapters-crypto';
import { DEMO_STORE_LOCATION, DEMO_ZONES_FILE } from '@storefront/adapters-zones';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig, type Env } from '../src/config.js';

function configError(env: Env): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  it('defaults to the memory database with demo data on port 3000', () => {
    const { openingHours, deliveryZones, ...config } = loadConfig({});
    // The demo's zones, around the demo store.
    expect(deliveryZones?.lookup(DEMO_STORE_LOCATION.lat, DEMO_STORE_LOCATION.lng).map((zone) => zone.name).sort()).to.deep.equal(['Centre', 'Outer ring']);
    expect(config).to.deep.equal({
      port: 3000,
      host: '0.0.0.0',
      database: 'memory',
      menuFile: undefined,
      demoData: true,
      rateLimit: { max: 120, windowSeconds: 60 },
      loginRateLimit: { max: 10, windowSeconds: 60 },
      loginEmailRateLimitMax: 100,
      registerRateLimit: { max: 5, windowSeconds: 3600 },
      statusRateLimit: { max: 600, windowSeconds: 60 },
      scrypt: { logN: 17, r: 8, p: 1, maxConcurrency: 4, maxQueue: 64, maxWaitMs: 1000 },
      tokenSecretKey: undefined,
      tokenVerifyKeys: [],
      tokenVerifyKeysFromOldName: false,
      logLevel: 'info',
      logPretty: false,
      trustProxy: false,
      trustProxyHops: 1,
      shutdownTimeoutSeconds: 10,
      mongodbUri: undefined,
      mongodbTimeoutMs: 2000,
      databaseUrl: undefined,
      pgPoolMax: 10,
      pgTimeoutMs: 2000,
      redisUrl: undefined,
      redisCommandTimeoutMs: 100,
      streamsPerCaller: 5,
      streamsMax: 10_000,
      storeName: 'Storefront',
      currency: 'USD',
      // The demo store is in Berlin: prices include tax, 19 % where a product names no rate.
      taxes: { rate: 1900, pricesIncludeTax: true, deliveryFeeRate: 1900 },
      slots: { slotMinutes: 15, pickupLeadMinutes: 20, deliveryLeadMinutes: 45, scheduleDays: 7, capacity: null },
      metrics: undefined,
      mail: { smtpUrl: undefined, from: '"Storefront" <no-reply@localhost>', passwordResetUrl: undefined },
      docs: true,
      kitchenPage: true,
      webhooks: { timeoutMs: 10_000, allowHttp: false, allowPrivate: false, retentionDays: 30 },
      payments: { provider: 'none' },
    });
    expect(openingHours.schedule).to.equal(null);
    expect(openingHours.timeZone).to.equal('UTC');
    expect(openingHours.isOpen(new Date())).to.equal(true);
  });

  it('reads every variable', () => {
    const key = generateSigningKey();
    const previous = generateSigningKey();
    const loaded = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      STOREFRONT_STORE: 'memory',
      STOREFRONT_MENU_FILE: '/srv/menu.json',
      STOREFRONT_DEMO_DATA: '0',
      RATE_LIMIT_MAX: '5000000',
      RATE_LIMIT_WINDOW_SECONDS: '30',
      LOGIN_RATE_LIMIT_MAX: '3',
      LOGIN_RATE_LIMIT_WINDOW_SECONDS: '120',
      LOGIN_EMAIL_RATE_LIMIT_MAX: '40',
      REGISTER_RATE_LIMIT_MAX: '20',
      REGISTER_RATE_LIMIT_WINDOW_SECONDS: '600',
      SMTP_URL: 'smtp://mailer:s3cret@mail.internal:587',
      MAIL_FROM: 'Chez Ann <hello@chez-ann.example>',
      PASSWORD_RESET_URL: 'https://chez-ann.example/reset?token=',
      STATUS_RATE_LIMIT_MAX: '50',
      STATUS_RATE_LIMIT_WINDOW_SECONDS: '10',
      SCRYPT_LOG_N: '10',
      SCRYPT_R: '4',
      SCRYPT_P: '2',
      SCRYPT_MAX_CONCURRENCY: '2',
      SCRYPT_MAX_QUEUE: '0',
      SCRYPT_MAX_WAIT_MS: '2500',
      TOKEN_SECRET_KEY: key,
      TOKEN_VERIFY_KEYS: previous,
      LOG_LEVEL: 'silent',
      LOG_PRETTY: 'true',
      TRUST_PROXY: '1',
      TRUST_PROXY_HOPS: '2',
      SHUTDOWN_TIMEOUT_SECONDS: '0',
      REDIS_URL: 'redis://cache.internal:6379/2',
      REDIS_COMMAND_TIMEOUT_MS: '250',
      MONGODB_TIMEOUT_MS: '1500',
      PG_POOL_MAX: '25',
      PG_TIMEOUT_MS: '3000',
      STOREFRONT_NAME: 'Chez Ann',
      STOREFRONT_CURRENCY: 'EUR',
      STOREFRONT_TAX_RATE: '825',
      STOREFRONT_PRICES_INCLUDE_TAX: 'false',
      STOREFRONT_DELIVERY_FEE_TAX_RATE: '0',
      STOREFRONT_STREAMS_PER_CALLER: '20',
      STOREFRONT_STREAMS_MAX: '300',
      STOREFRONT_OPENING_HOURS: 'Mo-Fr 11:00-22:00',
      STOREFRONT_TIME_ZONE: 'Europe/Berlin',
      STOREFRONT_SLOT_MINUTES: '30',
      STOREFRONT_PICKUP_LEAD_MINUTES: '10',
      STOREFRONT_DELIVERY_LEAD_MINUTES: '60',
      STOREFRONT_SCHEDULE_DAYS: '14',
      STOREFRONT_SLOT_CAPACITY: '8',
      STOREFRONT_DELIVERY_ZONES_FILE: DEMO_ZONES_FILE,
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
      STOREFRONT_DOCS: 'false',
      STOREFRONT_KITCHEN_PAGE: 'false',
      WEBHOOK_TIMEOUT_MS: '2500',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETENTION_DAYS: '7',
      STOREFRONT_PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_51AbCdEf',
      STRIPE_WEBHOOK_SECRET: 'whsec_0123abcd',
      STRIPE_API_BASE: 'http://127.0.0.1:12111',
      PAYMENT_WINDOW_MINUTES: '30',
    });
    const { openingHours, deliveryZones, ...config } = loaded;
    expect(deliveryZones?.lookup(0, 0)).to.deep.equal([]);
    expect(deliveryZones?.lookup(DEMO_STORE_LOCATION.lat, DEMO_STORE_LOCATION.lng)).to.have.length(2);
    expect(openingHours.schedule).to.equal('Mo-Fr 11:00-22:00');
    expect(openingHours.timeZone).to.equal('Europe/Berlin');
    // A Monday noon in Berlin (10:00Z in summer) is open; the Sunday before is not.
    expect(openingHours.isOpen(new Date('2026-06-01T10:00:00Z'))).to.equal(true);
    expect(openingHours.isOpen(new Date('2026-05-31T10:00:00Z'))).to.equal(false);
    expect(config).to.deep.equal({
      port: 0,
      host: '127.0.0.1',
      database: 'memory',
      menuFile: '/srv/menu.json',
      demoData: false,
      rateLimit: { max: 5_000_000, windowSeconds: 30 },
      loginRateLimit: { max: 3, windowSeconds: 120 },
      loginEmailRateLimitMax: 40,
      registerRateLimit: { max: 20, windowSeconds: 600 },
      statusRateLimit: { max: 50, windowSeconds: 10 },
      scrypt: { logN: 10, r: 4, p: 2, maxConcurrency: 2, maxQueue: 0, maxWaitMs: 2500 },
      tokenSecretKey: key,
      tokenVerifyKeys: [previous],
      tokenVerifyKeysFromOldName: false,
      logLevel: 'silent',
      logPretty: true,
      trustProxy: true,
      trustProxyHops: 2,
      shutdownTimeoutSeconds: 0,
      mongodbUri: undefined,
      mongodbTimeoutMs: 1500,
      databaseUrl: undefined,
      pgPoolMax: 25,
      pgTimeoutMs: 3000,
      redisUrl: 'redis://cache.internal:6379/2',
      redisCommandTimeoutMs: 250,
      streamsPerCaller: 20,
      streamsMax: 300,
      storeName: 'Chez Ann',
      currency: 'EUR',
      taxes: { rate: 825, pricesIncludeTax: false, deliveryFeeRate: 0 },
      slots: { slotMinutes: 30, pickupLeadMinutes: 10, deliveryLeadMinutes: 60, scheduleDays: 14, capacity: 8 },
      metrics: { port: 9464, host: '0.0.0.0' },
      mail: { smtpUrl: 'smtp://mailer:s3cret@mail.internal:587', from: 'Chez Ann <hello@chez-ann.example>', passwordResetUrl: 'https://chez-ann.example/reset?token=' },
      docs: false,
      kitchenPage: false,
      webhooks: { timeoutMs: 2500, allowHttp: true, allowPrivate: true, retentionDays: 7 },
      payments: { provider: 'stripe', stripe: { secretKey: 'sk_test_51AbCdEf', webhookSecret: 'whsec_0123abcd', apiBase: 'http://127.0.0.1:12111' }, windowMs: 30 * 60_000 },
    });
  });

  it('names STOREFRONT_OPENING_HOURS, STOREFRONT_TIME_ZONE and STOREFRONT_CURRENCY when they cannot be read', () => {
    expect(() => loadConfig({ STOREFRONT_OPENING_HOURS: 'Mo-Fr 25:00-26:00' })).to.throw(ConfigError, /^STOREFRONT_OPENING_HOURS is not OpenStreetMap opening_hours syntax/);
    expect(() => loadConfig({ STOREFRONT_TIME_ZONE: 'Mars/Olympus' })).to.throw(ConfigError, /^STOREFRONT_TIME_ZONE must be an IANA time zone/);
    expect(() => loadConfig({ STOREFRONT_CURRENCY: 'usd' })).to.throw(ConfigError, /^STOREFRONT_CURRENCY must be an ISO 4217 code/);
  });

  it('names STOREFRONT_DELIVERY_ZONES_FILE when the file cannot be read or is not zones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zones-'));
    try {
      const file = join(dir, 'zones.geojson');
      writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'A', fee: 1 }, geometry: null }] }));
      expect(() => loadConfig({ STOREFRONT_DELIVERY_ZONES_FILE: file })).to.throw(ConfigError, /^STOREFRONT_DELIVERY_ZONES_FILE is not a usable GeoJSON FeatureCollection.*features\[0\]\.properties\.minimum_order/);
      writeFileSync(file, '{ not json');
      expect(() => loadConfig({ STOREFRONT_DELIVERY_ZONES_FILE: file })).to.throw(ConfigError, /^STOREFRONT_DELIVERY_ZONES_FILE .*is not JSON/);
      expect(() => loadConfig({ STOREFRONT_DELIVERY_ZONES_FILE: join(dir, 'missing.geojson') })).to.throw(ConfigError, /^STOREFRONT_DELIVERY_ZONES_FILE .*cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('taxes nothing, added on top, without demo data or tax variables; the delivery fee takes the store\'s rate unless given its own', () => {
    expect(loadConfig({ STOREFRONT_DEMO_DATA: 'false' }).taxes).to.deep.equal({ rate: 0, pricesIncludeTax: false, deliveryFeeRate: 0 });
    expect(loadConfig({ STOREFRONT_DEMO_DATA: 'false', STOREFRONT_TAX_RATE: '700' }).taxes).to.deep.equal({ rate: 700, pricesIncludeTax: false, deliveryFeeRate: 700 });
    expect(loadConfig({ STOREFRONT_TAX_RATE: '10000', STOREFRONT_DELIVERY_FEE_TAX_RATE: '0' }).taxes).to.deep.equal({ rate: 10_000, pricesIncludeTax: true, deliveryFeeRate: 0 });
    // Demo data with the operator's own setting: theirs wins.
    expect(loadConfig({ STOREFRONT_PRICES_INCLUDE_TAX: 'false' }).taxes.pricesIncludeTax).to.equal(false);
  });

  it('offers no delivery without a zones file or demo data', () => {
    expect(loadConfig({ STOREFRONT_DEMO_DATA: 'false' }).deliveryZones).to.equal(null);
  });

  it('names the slot variables when they cannot be used', () => {
    expect(() => loadConfig({ STOREFRONT_SLOT_MINUTES: '7' })).to.throw(ConfigError, /^STOREFRONT_SLOT_MINUTES must divide a day/);
    expect(() => loadConfig({ STOREFRONT_SLOT_MINUTES: '1' })).to.throw(ConfigError, /^STOREFRONT_SLOT_MINUTES must be an integer from 5 to 240/);
    expect(() => loadConfig({ STOREFRONT_SLOT_CAPACITY: '0' })).to.throw(ConfigError, /^STOREFRONT_SLOT_CAPACITY must be/);
    expect(() => loadConfig({ STOREFRONT_SCHEDULE_DAYS: 'a week' })).to.throw(ConfigError, /^STOREFRONT_SCHEDULE_DAYS must be/);
    expect(() => loadConfig({ STOREFRONT_PICKUP_LEAD_MINUTES: '-5' })).to.throw(ConfigError, /^STOREFRONT_PICKUP_LEAD_MINUTES must be/);
  });

  it('names REDIS_URL when it is not a redis:// or rediss:// URL, without echoing it', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://user:hunter2@cache:6379' }))
      .to.throw(ConfigError, /^REDIS_URL must be a URL starting with redis:\/\/ or rediss:\/\//)
      .that.satisfies((error: Error) => !error.message.includes('hunter2'));
  });

  it('accepts true/false/1/0 for booleans, in any case', () => {
    expect(loadConfig({ TRUST_PROXY: 'TRUE' }).trustProxy).to.equal(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).to.equal(false);
    expect(loadConfig({ STOREFRONT_DEMO_DATA: 'False' }).demoData).to.equal(false);
  });

  it('treats a blank variable as unset', () => {
    expect(loadConfig({ PORT: '', LOG_LEVEL: '  ', TOKEN_SECRET_KEY: '' })).to.include({ port: 3000, logLevel: 'info', tokenSecretKey: undefined });
  });

  it('names the variable and the value in the message of each bad value', () => {
    const cases: Array<[string, string, string]> = [
      ['PORT', 'http', 'PORT must be an integer from 0 to 65535, got "http"'],
      ['PORT', '70000', 'PORT must be an integer from 0 to 65535, got "70000"'],
      ['PORT', '-1', 'PORT must be an integer from 0 to 65535, got "-1"'],
      ['STOREFRONT_STORE', 'mysql', 'STOREFRONT_STORE must be one of memory, mongo, postgres, got "mysql"'],
      ['STOREFRONT_DEMO_DATA', 'yes', 'STOREFRONT_DEMO_DATA must be true, false, 1 or 0, got "yes"'],
      ['RATE_LIMIT_MAX', 'abc', 'RATE_LIMIT_MAX must be a positive integer, got "abc"'],
      ['RATE_LIMIT_MAX', '0', 'RATE_LIMIT_MAX must be a positive integer, got "0"'],
      ['RATE_LIMIT_MAX', '1.5', 'RATE_LIMIT_MAX must be a positive integer, got "1.5"'],
      ['RATE_LIMIT_WINDOW_SECONDS', '0', 'RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 86400, got "0"'],
      ['LOGIN_RATE_LIMIT_MAX', '1e3', 'LOGIN_RATE_LIMIT_MAX must be a positive integer, got "1e3"'],
      ['LOGIN_RATE_LIMIT_WINDOW_SECONDS', 'x', 'LOGIN_RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 86400, got "x"'],
      ['LOGIN_EMAIL_RATE_LIMIT_MAX', '9', 'LOGIN_EMAIL_RATE_LIMIT_MAX must be an integer from 10 to 1000000000, got "9"'],
      ['STOREFRONT_STREAMS_MAX', '0', 'STOREFRONT_STREAMS_MAX must be an integer from 1 to 1000000, got "0"'],
      ['SCRYPT_LOG_N', '9', 'SCRYPT_LOG_N must be an integer from 10 to 20, got "9"'],
      ['SCRYPT_LOG_N', '21', 'SCRYPT_LOG_N must be an integer from 10 to 20, got "21"'],
      ['SCRYPT_R', '0', 'SCRYPT_R must be an integer from 1 to 32, got "0"'],
      ['SCRYPT_P', '99', 'SCRYPT_P must be an integer from 1 to 16, got "99"'],
      ['SCRYPT_MAX_CONCURRENCY', '0', 'SCRYPT_MAX_CONCURRENCY must be an integer from 1 to 64, got "0"'],
      ['SCRYPT_MAX_QUEUE', '-1', 'SCRYPT_MAX_QUEUE must be an integer from 0 to 100000, got "-1"'],
      ['SCRYPT_MAX_QUEUE', 'many', 'SCRYPT_MAX_QUEUE must be an integer from 0 to 100000, got "many"'],
      ['SCRYPT_MAX_WAIT_MS', '10001', 'SCRYPT_MAX_WAIT_MS must be an integer from 0 to 10000, got "10001"'],
      ['SCRYPT_MAX_WAIT_MS', '1.5', 'SCRYPT_MAX_WAIT_MS must be an integer from 0 to 10000, got "1.5"'],
      ['LOG_LEVEL', 'verbose', 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"'],
      ['LOG_PRETTY', 'maybe', 'LOG_PRETTY must be true, false, 1 or 0, got "maybe"'],
      ['STOREFRONT_KITCHEN_PAGE', 'off', 'STOREFRONT_KITCHEN_PAGE must be true, false, 1 or 0, got "off"'],
      ['TRUST_PROXY', 'on', 'TRUST_PROXY must be true, false, 1 or 0, got "on"'],
      ['STATUS_RATE_LIMIT_MAX', '0', 'STATUS_RATE_LIMIT_MAX must be a positive integer, got "0"'],
      ['STATUS_RATE_LIMIT_WINDOW_SECONDS', '90000', 'STATUS_RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 86400, got "90000"'],
      ['SHUTDOWN_TIMEOUT_SECONDS', '-5', 'SHUTDOWN_TIMEOUT_SECONDS must be an integer from 0 to 3600, got "-5"'],
      ['MONGODB_TIMEOUT_MS', '50', 'MONGODB_TIMEOUT_MS must be an integer from 100 to 10000, got "50"'],
      ['MONGODB_TIMEOUT_MS', '20000', 'MONGODB_TIMEOUT_MS must be an integer from 100 to 10000, got "20000"'],
      ['REGISTER_RATE_LIMIT_MAX', '0', 'REGISTER_RATE_LIMIT_MAX must be a positive integer, got "0"'],
      ['REGISTER_RATE_LIMIT_WINDOW_SECONDS', '86401', 'REGISTER_RATE_LIMIT_WINDOW_SECONDS must be an integer from 1 to 86400, got "86401"'],
      ['MAIL_FROM', 'no-reply', 'MAIL_FROM must be an address such as no-reply@shop.example or "Shop <no-reply@shop.example>", got "no-reply"'],
      ['WEBHOOK_TIMEOUT_MS', '50', 'WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000, got "50"'],
      ['WEBHOOK_TIMEOUT_MS', 'soon', 'WEBHOOK_TIMEOUT_MS must be an integer from 100 to 60000, got "soon"'],
      ['WEBHOOK_RETENTION_DAYS', '0', 'WEBHOOK_RETENTION_DAYS must be an integer from 1 to 3650, got "0"'],
      ['WEBHOOK_ALLOW_HTTP', 'yes', 'WEBHOOK_ALLOW_HTTP must be true, false, 1 or 0, got "yes"'],
      ['WEBHOOK_ALLOW_PRIVATE', 'sure', 'WEBHOOK_ALLOW_PRIVATE must be true, false, 1 or 0, got "sure"'],
      ['STOREFRONT_TAX_RATE', '7.5', 'STOREFRONT_TAX_RATE must be a whole number of basis points from 0 to 10000 (700 is 7 %), got "7.5"'],
      ['STOREFRONT_TAX_RATE', '10001', 'STOREFRONT_TAX_RATE must be a whole number of basis points from 0 to 10000 (700 is 7 %), got "10001"'],
      ['STOREFRONT_TAX_RATE', '-1', 'STOREFRONT_TAX_RATE must be a whole number of basis points from 0 to 10000 (700 is 7 %), got "-1"'],
      ['STOREFRONT_DELIVERY_FEE_TAX_RATE', '19%', 'STOREFRONT_DELIVERY_FEE_TAX_RATE must be a whole number of basis points from 0 to 10000 (700 is 7 %), got "19%"'],
      ['STOREFRONT_PRICES_INCLUDE_TAX', 'yes', 'STOREFRONT_PRICES_INCLUDE_TAX must be true, false, 1 or 0, got "yes"'],
      ['PASSWORD_RESET_URL', 'shop.example/reset', 'PASSWORD_RESET_URL must be a URL starting with https:// or http://; the value given is not'],
    ];
    for (const [variable, value, message] of cases) {
      const error = configError({ [variable]: value });
      expect(error.message).to.equal(message);
      expect(error.issues).to.deep.equal([{ variable, message }]);
    }
  });

  it('requires PASSWORD_RESET_URL with SMTP_URL in production (MongoDB), so that no customer is mailed the demo\'s localhost link', () => {
    const mongo = { STOREFRONT_STORE: 'mongo', MONGODB_URI: 'mongodb://db-1:27017/storefront', TOKEN_SECRET_KEY: generateSigningKey() };
    const error = configError({ ...mongo, SMTP_URL: 'smtp://mail.internal:25' });
    expect(error.issues.map((issue) => issue.variable)).to.deep.equal(['PASSWORD_RESET_URL']);
    expect(error.message).to.match(/^PASSWORD_RESET_URL is required with SMTP_URL and MONGODB_URI/);
    expect(loadConfig({ ...mongo, SMTP_URL: 'smtp://mail.internal:25', PASSWORD_RESET_URL: 'https://shop.example/reset?token=' }).mail.passwordResetUrl).to.equal('https://shop.example/reset?token=');
    // A demo against a local mail catcher starts with the demo's link (and says so when it starts).
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).mail).to.include({ smtpUrl: 'smtp://127.0.0.1:2525', passwordResetUrl: undefined });
    expect(loadConfig({ PASSWORD_RESET_URL: 'https://shop.example/reset?token=' }).mail.smtpUrl).to.equal(undefined);
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, naming SMTP_URL and never echoing its password', () => {
    for (const value of ['http://mailer:hunter2@mail.internal', 'not a url hunter2', 'smtp://mailer:hunter2@']) {
      const error = configError({ SMTP_URL: value, PASSWORD_RESET_URL: 'https://shop.example/reset?token=' });
      expect(error.issues.map((issue) => issue.variable), value).to.deep.equal(['SMTP_URL']);
      expect(error.message, value).to.match(/^SMTP_URL /).and.not.contain('hunter2');
    }
  });

  it('sends from the store name at no-reply@ the reset page\'s host unless MAIL_FROM says otherwise, quoting the name', () => {
    const reset = { PASSWORD_RESET_URL: 'https://shop.example/reset?token=' };
    expect(loadConfig({ ...reset, STOREFRONT_NAME: 'Joe\'s "Pizza", Inc.' }).mail.from).to.equal('"Joe\'s \\"Pizza\\", Inc." <no-reply@shop.example>');
    expect(loadConfig({ PASSWORD_RESET_URL: 'http://192.0.2.7:8080/reset?token=' }).mail.from).to.equal('"Storefront" <no-reply@[192.0.2.7]>');
    expect(loadConfig({ ...reset, MAIL_FROM: 'orders@shop.example' }).mail.from).to.equal('orders@shop.example');
    // A line break would let the value write headers of its own.
    for (const injected of ['Shop <no-reply@shop.example>\r\nBcc: x@evil.example', 'Shop\r\nBcc: x@evil.example <no-reply@shop.example>']) {
      expect(configError({ ...reset, MAIL_FROM: injected }).issues.map((issue) => issue.variable)).to.deep.equal(['MAIL_FROM']);
    }
    // The store's name is one line of text (TEXT_RULE), as any name: shown on pages and in the From header.
    for (const name of ['Shop\r\nBcc: x@evil.example', 'Shop\u202e', 'Shop\u0000']) {
      expect(configError({ ...reset, STOREFRONT_NAME: name }).issues.map((issue) => issue.variable), JSON.stringify(name)).to.deep.equal(['STOREFRONT_NAME']);
    }
  });

  it('trusts one proxy hop by default, and reads TRUST_PROXY_HOPS from 1 to 10', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' })).to.include({ trustProxy: true, trustProxyHops: 1 });
    expect(loadConfig({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: '3' })).to.include({ trustProxy: true, trustProxyHops: 3 });
    for (const value of ['0', '-1', '1.5', 'two', '11']) {
      const error = configError({ TRUST_PROXY: 'true', TRUST_PROXY_HOPS: value });
      expect(error.issues).to.deep.equal([{ variable: 'TRUST_PROXY_HOPS', message: `TRUST_PROXY_HOPS must be an integer from 1 to 10, got "${value}"` }]);
    }
  });

  it('refuses TRUST_PROXY_HOPS without TRUST_PROXY=true: the hops would be ignored and every client would share the proxy\'s quota', () => {
    for (const env of [{ TRUST_PROXY_HOPS: '2' }, { TRUST_PROXY: 'false', TRUST_PROXY_HOPS: '1' }]) {
      expect(configError(env).issues).to.deep.equal([
        { variable: 'TRUST_PROXY_HOPS', message: 'TRUST_PROXY_HOPS is set but TRUST_PROXY is not true; set TRUST_PROXY=true or unset TRUST_PROXY_HOPS' },
      ]);
    }
  });

  it('serves metrics only with METRICS_PORT, on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).to.equal(undefined);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).to.deep.equal({ port: 9464, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '0', HOST: '0.0.0.0' }).metrics).to.deep.equal({ port: 0, host: '127.0.0.1' });
    expect(configError({ METRICS_PORT: '70000' }).issues).to.deep.equal([{ variable: 'METRICS_PORT', message: 'METRICS_PORT must be an integer from 0 to 65535, got "70000"' }]);
  });

  it('refuses METRICS_HOST without METRICS_PORT, and METRICS_PORT equal to PORT', () => {
    expect(configError({ METRICS_HOST: '0.0.0.0' }).issues).to.deep.equal([
      { variable: 'METRICS_HOST', message: 'METRICS_HOST is set but METRICS_PORT is not; set METRICS_PORT to serve metrics or unset METRICS_HOST' },
    ]);
    expect(configError({ PORT: '8080', METRICS_PORT: '8080' }).issues).to.deep.equal([
      { variable: 'METRICS_PORT', message: 'METRICS_PORT must differ from PORT (8080): metrics have a listener of their own' },
    ]);
    // Two ephemeral ports are two different ports.
    expect(loadConfig({ PORT: '0', METRICS_PORT: '0' }).metrics).to.deep.equal({ port: 0, host: '127.0.0.1' });
  });

  it('refuses a scrypt cost above 1 GiB per hash, naming SCRYPT_R', () => {
    const error = configError({ SCRYPT_LOG_N: '20', SCRYPT_R: '16' });
    expect(error.issues.map((issue) => issue.variable)).to.deep.equal(['SCRYPT_R']);
    expect(loadConfig({ SCRYPT_LOG_N: '20', SCRYPT_R: '8' }).scrypt.logN).to.equal(20);
  });

  it('refuses a TOKEN_SECRET_KEY that is not a PASERK k4.secret, without echoing the secret', () => {
    const secret = 'k4.local.c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA';
    const error = configError({ TOKEN_SECRET_KEY: secret });
    expect(error.message).to.match(/^TOKEN_SECRET_KEY must be a PASERK k4\.secret key/);
    expect(error.message).not.to.include('c2VjcmV0');
  });

  it('reads TOKEN_VERIFY_KEYS as a comma-separated list of k4.public and k4.secret keys, blanks around commas ignored', async () => {
    const secret = generateSigningKey();
    const publicKey = await new PasetoTokenService(generateSigningKey()).publicKey();
    expect(loadConfig({ TOKEN_VERIFY_KEYS: ` ${secret} , ${publicKey} ` }).tokenVerifyKeys).to.deep.equal([secret, publicKey]);
    expect(loadConfig({ TOKEN_VERIFY_KEYS: publicKey }).tokenVerifyKeys).to.deep.equal([publicKey]);
    expect(loadConfig({ TOKEN_VERIFY_KEYS: '  ' }).tokenVerifyKeys).to.deep.equal([]);
  });

  it('still reads TOKEN_PREVIOUS_KEYS, the old name of TOKEN_VERIFY_KEYS, saying so; and refuses both at once, naming the old one', async () => {
    const publicKey = await new PasetoTokenService(generateSigningKey()).publicKey();
    expect(loadConfig({ TOKEN_PREVIOUS_KEYS: publicKey })).to.include({ tokenVerifyKeysFromOldName: true }).and.deep.include({ tokenVerifyKeys: [publicKey] });
    expect(loadConfig({ TOKEN_VERIFY_KEYS: publicKey }).tokenVerifyKeysFromOldName).to.equal(false);
    const error = configError({ TOKEN_VERIFY_KEYS: publicKey, TOKEN_PREVIOUS_KEYS: generateSigningKey() });
    expect(error.issues.map((issue) => issue.variable)).to.deep.equal(['TOKEN_PREVIOUS_KEYS']);
    expect(error.message).to.include('move its keys into TOKEN_VERIFY_KEYS');
  });

  for (const variable of ['TOKEN_VERIFY_KEYS', 'TOKEN_PREVIOUS_KEYS']) {
    it(`refuses a ${variable} entry that is not a k4.public or k4.secret PASERK, naming the variable and the entry without echoing it`, () => {
      const secret = generateSigningKey();
      const local = 'k4.local.c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA';
      expect(configError({ [variable]: local }).issues).to.deep.equal([
        { variable, message: `${variable} must be a comma-separated list of PASERK k4.public or k4.secret keys; the value given is not` },
      ]);
      const error = configError({ [variable]: `${secret},${local},${secret.slice(0, -1)}` });
      expect(error.message).to.equal(`${variable} must be a comma-separated list of PASERK k4.public or k4.secret keys; entries 2, 3 of 3 are not`);
      expect(error.message).not.to.include('c2VjcmV0').and.not.to.include(secret.slice(10, 30));
      expect(configError({ [variable]: `${secret},` }).message).to.match(/entry 2 of 2 is not$/);
    });
  }

  it('reports every bad variable at once, one per line', () => {
    const error = configError({ PORT: 'x', RATE_LIMIT_MAX: 'abc', LOG_LEVEL: 'loud' });
    expect(error.issues.map((issue) => issue.variable)).to.have.members(['PORT', 'RATE_LIMIT_MAX', 'LOG_LEVEL']);
    expect(error.message.split('\n')).to.have.length(3);
  });

  it('accepts the mongo database, without demo data and with a required TOKEN_SECRET_KEY', () => {
    const key = generateSigningKey();
    const uri = 'mongodb://db-1:27017,db-2:27017/storefront?replicaSet=rs0';
    expect(loadConfig({ STOREFRONT_STORE: 'mongo', MONGODB_URI: uri, TOKEN_SECRET_KEY: key })).to.include({ database: 'mongo', demoData: false, mongodbUri: uri });
    expect(loadConfig({ STOREFRONT_STORE: 'mongo', MONGODB_URI: uri, TOKEN_SECRET_KEY: key, STOREFRONT_DEMO_DATA: 'true' }).demoData).to.equal(true);
    expect(configError({ STOREFRONT_STORE: 'mongo', MONGODB_URI: uri }).issues[0]).to.include({ variable: 'TOKEN_SECRET_KEY' });
  });

  it('accepts the postgres database with a DATABASE_URL naming its database, without demo data and with a required TOKEN_SECRET_KEY', () => {
    const key = generateSigningKey();
    for (const url of ['postgres://storefront:secret@db:5432/shop', 'postgresql://db/shop', 'postgres:///shop?host=/run/postgresql']) {
      expect(loadConfig({ STOREFRONT_STORE: 'postgres', DATABASE_URL: url, TOKEN_SECRET_KEY: key }), url).to.include({ database: 'postgres', demoData: false, databaseUrl: url, mongodbUri: undefined });
    }
    expect(configError({ STOREFRONT_STORE: 'postgres', DATABASE_URL: 'postgres://db/shop' }).issues[0]).to.include({ variable: 'TOKEN_SECRET_KEY' });
    expect(loadConfig({ DATABASE_URL: 'ignored' }).databaseUrl, 'memory store').to.equal(undefined);
  });

  it('requires a DATABASE_URL that is a postgres:// URL naming host and database when STOREFRONT_STORE=postgres, never echoing it', () => {
    const key = generateSigningKey();
    expect(configError({ STOREFRONT_STORE: 'postgres', TOKEN_SECRET_KEY: key }).issues).to.deep.equal([
      { variable: 'DATABASE_URL', message: 'DATABASE_URL is required with STOREFRONT_STORE=postgres, e.g. postgres://storefront:secret@db.internal:5432/storefront' },
    ]);
    const cases: Array<[string, RegExp]> = [
      ['not a url s3cret', /it is not a URL/],
      ['mysql://u:s3cret@db/shop', /must start with postgres:\/\/ or postgresql:\/\/, not mysql:\/\//],
      ['postgres://u:s3cret@db:5432', /names no database/],
      ['postgres://u:s3cret@db:5432/', /names no database/],
      ['postgres:///shop', /names no host/],
    ];
    for (const [value, message] of cases) {
      const [issue, ...more] = configError({ STOREFRONT_STORE: 'postgres', TOKEN_SECRET_KEY: key, DATABASE_URL: value }).issues;
      expect(more, value).to.deep.equal([]);
      expect(issue!.variable, value).to.equal('DATABASE_URL');
      expect(issue!.message, value).to.match(message).and.match(/^DATABASE_URL cannot be used: /);
      expect(issue!.message, value).to.not.include('s3cret');
    }
  });

  it('bounds PG_POOL_MAX to 1..1000 and PG_TIMEOUT_MS to 100..10000 ms (below the request time-out), naming each', () => {
    for (const [variable, bad] of [['PG_POOL_MAX', '0'], ['PG_POOL_MAX', '1001'], ['PG_POOL_MAX', 'ten'], ['PG_TIMEOUT_MS', '99'], ['PG_TIMEOUT_MS', '10001'], ['PG_TIMEOUT_MS', '1.5']] as const) {
      expect(configError({ [variable]: bad }).issues.map((issue) => issue.variable), `${variable}=${bad}`).to.deep.equal([variable]);
    }
    expect(loadConfig({ PG_POOL_MAX: '1000', PG_TIMEOUT_MS: '100' })).to.include({ pgPoolMax: 1000, pgTimeoutMs: 100 });
  });

  it('requires PASSWORD_RESET_URL with SMTP_URL on PostgreSQL too, naming DATABASE_URL as the production sign', () => {
    const env = { STOREFRONT_STORE: 'postgres', DATABASE_URL: 'postgres://db/shop', TOKEN_SECRET_KEY: generateSigningKey(), SMTP_URL: 'smtp://mail:587' };
    expect(configError(env).issues[0]!.message).to.match(/^PASSWORD_RESET_URL is required with SMTP_URL and DATABASE_URL/);
  });

  it('requires a MONGODB_URI that names its database when STOREFRONT_STORE=mongo', () => {
    const key = generateSigningKey();
    expect(configError({ STOREFRONT_STORE: 'mongo', TOKEN_SECRET_KEY: key }).issues).to.deep.equal([
      { variable: 'MONGODB_URI', message: 'MONGODB_URI is required with STOREFRONT_STORE=mongo, e.g. mongodb://db-1,db-2,db-3/storefront?replicaSet=rs0' },
    ]);
    for (const bad of ['mongodb://db-1:27017', 'mongodb://db-1:27017/', 'postgres://db/storefront']) {
      expect(configError({ STOREFRONT_STORE: 'mongo', TOKEN_SECRET_KEY: key, MONGODB_URI: bad }).issues[0], bad).to.include({ variable: 'MONGODB_URI' });
    }
    expect(loadConfig({ MONGODB_URI: 'ignored' }).mongodbUri, 'memory store').to.equal(undefined);
  });

  it('refuses at start a MONGODB_URI the driver cannot read or whose database MongoDB would refuse, naming MONGODB_URI without echoing its password', () => {
    const key = generateSigningKey();
    const cases: Array<[string, RegExp]> = [
      ['mongodb://127.0.0.1:1/bad$name', /database "bad\$name", and a MongoDB database name cannot contain/],
      ['mongodb://127.0.0.1:1/bad%20name', /database "bad name"/],
      ['mongodb://127.0.0.1:1/shop.orders', /database "shop\.orders"/],
      [`mongodb://127.0.0.1:1/${'d'.repeat(64)}`, /64 bytes/],
      ['mongodb://app:hunter2@127.0.0.1:1/storefront?w=majority&bogusOption=1', /driver cannot read it: option bogusoption is not supported/],
      ['mongodb://app:hunter2@127.0.0.1:1/storefront?readPreference=nearest-ish', /driver cannot read it: Invalid read preference mode "nearest-ish"/],
    ];
    for (const [uri, message] of cases) {
      const error = configError({ STOREFRONT_STORE: 'mongo', TOKEN_SECRET_KEY: key, MONGODB_URI: uri });
      expect(error.issues.map((issue) => issue.variable), uri).to.deep.equal(['MONGODB_URI']);
      expect(error.message, uri).to.match(/^MONGODB_URI cannot be used: /).and.match(message);
      expect(error.message, uri).not.to.include('hunter2');
    }
    expect(loadConfig({ STOREFRONT_STORE: 'mongo', TOKEN_SECRET_KEY: key, MONGODB_URI: `mongodb://127.0.0.1:1/${'d'.repeat(63)}` }).database).to.equal('mongo');
  });

  describe('card payments (STOREFRONT_PAYMENTS)', () => {
    const stripe = { STOREFRONT_PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', STRIPE_WEBHOOK_SECRET: 'whsec_9f8e7d6c5b4a' };

    it('takes Stripe\'s own API and a 15-minute window unless told otherwise; the provider name in any case', () => {
      expect(loadConfig(stripe).payments).to.deep.equal({
        provider: 'stripe',
        stripe: { secretKey: stripe.STRIPE_SECRET_KEY, webhookSecret: stripe.STRIPE_WEBHOOK_SECRET, apiBase: 'https://api.stripe.com' },
        windowMs: 15 * 60_000,
      });
      expect(loadConfig({ ...stripe, STOREFRONT_PAYMENTS: 'Stripe', STRIPE_SECRET_KEY: 'rk_live_abc123' }).payments).to.have.nested.property('stripe.secretKey', 'rk_live_abc123');
      expect(loadConfig({ STOREFRONT_PAYMENTS: 'none' }).payments).to.deep.equal({ provider: 'none' });
      expect(configError({ STOREFRONT_PAYMENTS: 'paypal' }).issues).to.deep.equal([{ variable: 'STOREFRONT_PAYMENTS', message: 'STOREFRONT_PAYMENTS must be one of none, stripe, got "paypal"' }]);
    });

    it('requires STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET with stripe, naming each', () => {
      expect(configError({ STOREFRONT_PAYMENTS: 'stripe' }).issues.map((issue) => issue.variable)).to.deep.equal(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
      expect(configError({ ...stripe, STRIPE_WEBHOOK_SECRET: ' ' }).message).to.match(/^STRIPE_WEBHOOK_SECRET is required with STOREFRONT_PAYMENTS=stripe/);
    });

    it('refuses keys of the wrong kind without echoing them, and names a publishable key as such', () => {
      for (const bad of ['sk_prod_abc', 'whsec_abc', 'sk_test_has space', 'hunter2']) {
        const error = configError({ ...stripe, STRIPE_SECRET_KEY: bad });
        expect(error.issues.map((issue) => issue.variable), bad).to.deep.equal(['STRIPE_SECRET_KEY']);
        expect(error.message).not.to.include(bad);
      }
      expect(configError({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_TYooMQauvdEDq54NiTphI7jx' }).message).to.equal(
        'STRIPE_SECRET_KEY must be a secret key (sk_…), not the publishable one (pk_…), which belongs to the front end',
      );
      const webhook = configError({ ...stripe, STRIPE_WEBHOOK_SECRET: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc' });
      expect(webhook.issues.map((issue) => issue.variable)).to.deep.equal(['STRIPE_WEBHOOK_SECRET']);
      expect(webhook.message).not.to.include('4eC39');
    });

    it('takes STRIPE_API_BASE as an http(s) origin, never plain http with a live key', () => {
      expect(loadConfig({ ...stripe, STRIPE_API_BASE: 'http://127.0.0.1:12111/' }).payments).to.have.nested.property('stripe.apiBase', 'http://127.0.0.1:12111');
      for (const bad of ['127.0.0.1:12111', 'ftp://stripe.example', 'https://api.stripe.com/v1', 'https://user:pw@api.stripe.com']) {
        expect(configError({ ...stripe, STRIPE_API_BASE: bad }).issues.map((issue) => issue.variable), bad).to.deep.equal(['STRIPE_API_BASE']);
      }
      expect(configError({ ...stripe, STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_API_BASE: 'http://127.0.0.1:12111' }).issues).to.deep.equal([
        { variable: 'STRIPE_API_BASE', message: 'STRIPE_API_BASE must be https:// with a live STRIPE_SECRET_KEY' },
      ]);
    });

    it('bounds PAYMENT_WINDOW_MINUTES to 1..1440', () => {
      expect(loadConfig({ ...stripe, PAYMENT_WINDOW_MINUTES: '1' }).payments).to.have.property('windowMs', 60_000);
      expect(loadConfig({ ...stripe, PAYMENT_WINDOW_MINUTES: '1440' }).payments).to.have.property('windowMs', 86_400_000);
      for (const bad of ['0', '1441', '2.5', 'soon']) {
        expect(configError({ ...stripe, PAYMENT_WINDOW_MINUTES: bad }).issues).to.deep.equal([
          { variable: 'PAYMENT_WINDOW_MINUTES', message: `PAYMENT_WINDOW_MINUTES must be an integer from 1 to 1440, got "${bad}"` },
        ]);
      }
    });

    it('refuses Stripe variables set without STOREFRONT_PAYMENTS=stripe: they would do nothing', () => {
      expect(configError({ STRIPE_SECRET_KEY: stripe.STRIPE_SECRET_KEY, PAYMENT_WINDOW_MINUTES: '20' }).issues).to.deep.equal([
        { variable: 'STRIPE_SECRET_KEY', message: 'STRIPE_SECRET_KEY is set but STOREFRONT_PAYMENTS is not stripe; set STOREFRONT_PAYMENTS=stripe or unset STRIPE_SECRET_KEY' },
        { variable: 'PAYMENT_WINDOW_MINUTES', message: 'PAYMENT_WINDOW_MINUTES is set but STOREFRONT_PAYMENTS is not stripe; set STOREFRONT_PAYMENTS=stripe or unset PAYMENT_WINDOW_MINUTES' },
      ]);
      expect(loadConfig({ STRIPE_API_BASE: '' }).payments).to.deep.equal({ provider: 'none' });
    });
  });
});
