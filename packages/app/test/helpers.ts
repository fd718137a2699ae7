/** Test helpers of @storefront/app: a logger that records its lines, and quick configs. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../src/logger.js';

/** Fast hashing, quiet, ephemeral port: what the app tests start with. */
export const TEST_ENV = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SCRYPT_LOG_N: '10' } as const;

export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** A real pino logger (same options as production) whose JSON lines are kept in `lines`. */
export function recordingLogger(level: 'info' | 'debug' = 'info'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line) as LogLine);
      callback();
    },
  });
  return { logger: createLogger({ logLevel: level, logPretty: false }, sink), lines };
}

export const WARN = 40;
export const ERROR = 50;
