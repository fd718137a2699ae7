/**
 * The process logger: pino, one JSON object per line (or pino-pretty for a human at a terminal).
 * Secrets are redacted by path, so a password or token never reaches a log line even when a
 * handler logs more than it should.
 */
import type { AccessLog } from '@storefront/adapters-http';
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';
import { BatchedDestination } from './log-sink.js';

export type { Logger } from 'pino';

export interface LoggerSettings {
  readonly logLevel: LogLevel;
  readonly logPretty: boolean;
}

const SECRET_KEYS = ['password', 'passwordHash', 'access_token', 'refresh_token', 'accessToken', 'refreshToken', 'token'];

export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`]),
];

/** The fields pino puts on every line (`base`); the access log writes the same. */
const BASE = { service: 'storefront' } as const;

/** Where each logger made here writes, so that the access log can write there too (same order). */
const destinations = new WeakMap<Logger, pino.DestinationStream>();

export function createLogger(settings: LoggerSettings, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.logLevel,
    base: BASE,
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    ...(settings.logPretty && destination === undefined
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } }
      : {}),
  };
  if (options.transport !== undefined) return pino(options);
  const stream = destination ?? BatchedDestination.stdout();
  const logger = pino(options, stream);
  destinations.set(logger, stream);
  return logger;
}

/**
 * The access log of the HTTP adapter, one line per request, as `logger.info(fields, 'request')`
 * would write it (same fields, same order, same stream) but formatted here: pino's generic
 * serialiser cost about 2 µs of the ~15 µs of JavaScript a request takes (docs/performance.md).
 * The values need no escaping but the path: the request id is checked against a strict pattern or
 * generated, the method is an HTTP token, status and ms are numbers. Undefined (the adapter's
 * default, through the logger) for a logger not made by `createLogger` or one writing through a
 * transport (pino-pretty).
 */
export function createAccessLog(logger: Logger): AccessLog | undefined {
  const stream = destinations.get(logger);
  if (stream === undefined) return undefined;
  const prefix = `{"level":${pino.levels.values['info']!},"time":`;
  const base = `,${JSON.stringify(BASE).slice(1, -1)},"req_id":"`;
  // Made once per millisecond and once per path in a row, not per line: turning a 13-digit
  // timestamp into text, and escaping a path, cost more than the rest of the line.
  let time = 0;
  let timeText = '0';
  let path = '';
  let pathJson = '""';
  return (entry) => {
    if (!logger.isLevelEnabled('info')) return;
    const now = Date.now();
    if (now !== time) {
      time = now;
      timeText = String(now);
    }
    if (entry.path !== path) {
      path = entry.path;
      pathJson = JSON.stringify(path);
    }
    stream.write(
      `${prefix}${timeText}${base}${entry.requestId}","method":"${entry.method}","path":${pathJson},` +
        `"status":${entry.status},"ms":${tenths(entry.ms)},"msg":"request"}\n`,
    );
  };
}

/**
 * `String(ms)` for a duration rounded to a tenth (what pino writes), from small integers: a
 * fraction's shortest decimal form is costly to compute, an integer's is cached by V8.
 */
function tenths(ms: number): string {
  const scaled = Math.round(ms * 10);
  if (!Number.isSafeInteger(scaled) || scaled < 0) return String(ms);
  const whole = Math.floor(scaled / 10);
  const tenth = scaled % 10;
  return tenth === 0 ? String(whole) : `${whole}.${tenth}`;
}
