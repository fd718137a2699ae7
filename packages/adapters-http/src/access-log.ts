/**
 * The access log: one line per answered request. Two ways to write it, one text:
 *
 * - `accessLogLines(target)` formats the line itself, exactly as pino's `logger.info(fields,
 *   'request')` would (same fields, same order), and hands it to the logger's own stream: pino's
 *   generic serialiser is a large share of a request's JavaScript (docs/performance.md). The
 *   values need no escaping but the path: the request id is checked
 *   against a strict pattern or generated, the method is an HTTP token, status and ms are numbers.
 * - `accessLogThrough(logger)`, the default, calls the logger (for a logger whose stream the app
 *   cannot reach, e.g. pino-pretty in a worker).
 */
import type { AccessLog, HttpLogger } from './app-types.js';

/** Where formatted lines go, and pino's fields for them. */
export interface AccessLineTarget {
  /** The logger's own stream, so that access lines stay in order with its other lines. */
  write(line: string): void;
  /** Asked per line: a level changed later applies at once. */
  enabled(): boolean;
  /** pino's number for `info`. */
  readonly level: number;
  /** pino's `base` fields, written after `time`. */
  readonly base: Readonly<Record<string, unknown>>;
}

export function accessLogLines(target: AccessLineTarget): AccessLog {
  const prefix = `{"level":${target.level},"time":`;
  const baseFields = JSON.stringify(target.base).slice(1, -1);
  const base = `${baseFields === '' ? '' : `,${baseFields}`},"req_id":"`;
  // Made once per millisecond and once per path in a row, not per line: turning a 13-digit
  // timestamp into text, and escaping a path, cost more than the rest of the line.
  let time = 0;
  let timeText = '0';
  let path = '';
  let pathJson = '""';
  return (entry) => {
    if (!target.enabled()) return;
    const now = Date.now();
    if (now !== time) {
      time = now;
      timeText = String(now);
    }
    if (entry.path !== path) {
      path = entry.path;
      pathJson = JSON.stringify(path);
    }
    target.write(
      `${prefix}${timeText}${base}${entry.requestId}","method":"${entry.method}","path":${pathJson},` +
        `"status":${entry.status},"ms":${tenths(entry.ms)},"msg":"request"}\n`,
    );
  };
}

/**
 * The access log through the logger. The line has fixed fields, none of them a secret, so it is
 * written without the logger's redaction paths (pino runs its wildcard paths over every field of
 * every line, which costs more than the rest of the line).
 */
export function accessLogThrough(logger: HttpLogger): AccessLog {
  const log = logger.child?.({}, { redact: [] }) ?? logger;
  return (entry) =>
    log.info({ req_id: entry.requestId, method: entry.method, path: entry.path, status: entry.status, ms: entry.ms }, 'request');
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
