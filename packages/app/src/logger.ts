/**
 * The process logger: pino, one JSON object per line (or pino-pretty for a human at a terminal).
 * Secrets are redacted by path, so a password or token never reaches a log line even when a
 * handler logs more than it should.
 */
import { accessLogLines, type AccessLog } from '@storefront/adapters-http';
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
 * The access log of the HTTP adapter written straight to this logger's stream (same order as its
 * other lines), in the text `logger.info(fields, 'request')` would write: the adapter formats it
 * (access-log.ts), this only says where and whether. Undefined (the adapter's default, through the
 * logger) for a logger not made by `createLogger` or one writing through a transport (pino-pretty).
 */
export function createAccessLog(logger: Logger): AccessLog | undefined {
  const stream = destinations.get(logger);
  if (stream === undefined) return undefined;
  return accessLogLines({
    write: (line) => stream.write(line),
    enabled: () => logger.isLevelEnabled('info'),
    level: pino.levels.values['info']!,
    base: BASE,
  });
}
