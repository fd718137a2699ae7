/**
 * The process logger: pino, one JSON object per line (or pino-pretty for a human at a terminal).
 * Secrets are redacted by path, so a password or token never reaches a log line even when a
 * handler logs more than it should.
 */
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config.js';

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

export function createLogger(settings: LoggerSettings, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: settings.logLevel,
    base: { service: 'storefront' },
    redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    ...(settings.logPretty && destination === undefined
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:standard' } } }
      : {}),
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
