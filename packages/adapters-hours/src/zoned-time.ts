/**
 * Wall-clock time in an IANA time zone, with nothing but `Intl`. A "wall time" is a number: the
 * milliseconds since the epoch as if the wall clock read UTC, so `wall = instant +
 * offsetAt(instant)` and between two transitions the mapping is a plain shift; at a transition the
 * wall clock jumps (a gap or an overlap), which is why the adapter walks from transition to
 * transition (osm-opening-hours.ts). UTC getters and setters throughout, so the process's zone
 * does not matter, except in `toLocalDate` and `fromLocalDate`, which exist for a library that
 * reads local fields.
 */

const DAY_MS = 86_400_000;

/**
 * The longest step taken when looking for the next transition. Every zone in the tz database keeps
 * an offset for weeks at least, so two transitions never both fall inside one step (a pair inside
 * one step would cancel out and go unseen).
 */
const TRANSITION_SCAN_STEP_MS = 7 * DAY_MS;

/** One formatter per zone: building an `Intl.DateTimeFormat` costs far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter; throws `RangeError` for a name that is not a valid IANA time zone. */
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      calendar: 'gregory',
      numberingSystem: 'latn',
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` names a time zone this runtime knows (`Europe/Berlin`, `UTC`, …). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch (error) {
    if (error instanceof RangeError) return false;
    throw error;
  }
}

/**
 * The wall time (see the file comment) that `timeZone`'s clocks show at `instant` (ms since the
 * epoch), to the millisecond.
 */
export function wallTimeAt(instant: number, timeZone: string): number {
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    switch (part.type) {
      case 'year': year = Number(part.value); break;
      case 'month': month = Number(part.value); break;
      case 'day': day = Number(part.value); break;
      // `h23` should never print 24, but some ICU versions did for midnight.
      case 'hour': hour = Number(part.value) % 24; break;
      case 'minute': minute = Number(part.value); break;
      case 'second': second = Number(part.value); break;
      case 'era': bc = part.value === 'BC' || part.value === 'B'; break;
      default: break;
    }
  }
  const millisecond = ((instant % 1000) + 1000) % 1000;
  return utcFields(bc ? 1 - year : year, month, day, hour, minute, second, millisecond);
}

/** The zone's offset from UTC at `instant`, in ms (east positive: +3,600,000 for CET). */
export function offsetAt(instant: number, timeZone: string): number {
  return wallTimeAt(instant, timeZone) - instant;
}

/**
 * The first instant in `(after, until]` at which `timeZone`'s offset differs from its offset at
 * `after`, i.e. at which the wall clock jumps; null when the offset holds until `until`. Found by
 * stepping a week at a time and bisecting the step that changed, to the millisecond.
 */
export function nextTransition(after: number, until: number, timeZone: string): number | null {
  const offset = offsetAt(after, timeZone);
  let from = after;
  while (from < until) {
    const to = Math.min(from + TRANSITION_SCAN_STEP_MS, until);
    if (offsetAt(to, timeZone) !== offset) {
      // Invariant: the offset at `low` is `offset`, the one at `high` is not.
      let low = from;
      let high = to;
      while (high - low > 1) {
        const middle = low + Math.floor((high - low) / 2);
        if (offsetAt(middle, timeZone) === offset) low = middle;
        else high = middle;
      }
      return high;
    }
    from = to;
  }
  return null;
}

/**
 * A Date whose *local* fields (getFullYear … getMilliseconds, in the process's time zone) read
 * `wallTime`: the form a library that reads local fields understands.
 *
 * Exact unless the process's own zone skips that wall time (its spring-forward gap): no Date has
 * those local fields, and JavaScript moves the time forward by the gap. So the answers do not
 * depend on the process's zone when it is UTC (as in containers), any zone without daylight saving
 * time, or the store's own zone (its gap holds no wall time the store's clock shows). Only a
 * process in another zone with daylight saving time can see a schedule boundary inside its own
 * skipped hour, on that one night a year, read up to an hour late: run servers with TZ=UTC.
 */
export function toLocalDate(wallTime: number): Date {
  const fields = new Date(wallTime);
  const local = new Date(2000, 0, 1);
  local.setFullYear(fields.getUTCFullYear(), fields.getUTCMonth(), fields.getUTCDate());
  local.setHours(fields.getUTCHours(), fields.getUTCMinutes(), fields.getUTCSeconds(), fields.getUTCMilliseconds());
  return local;
}

/** The wall time that a Date's local fields read: the inverse of `toLocalDate`. */
export function fromLocalDate(date: Date): number {
  return utcFields(
    date.getFullYear(),
    date.getMonth() + 1,
    date.getDate(),
    date.getHours(),
    date.getMinutes(),
    date.getSeconds(),
    date.getMilliseconds(),
  );
}

/** `Date.UTC` without its two-digit-year rule (it reads year 99 as 1999). */
function utcFields(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, ms);
  return date.getTime();
}

const MINUTE_MS = 60_000;
const MAX_CACHED_MINUTES = 10_000;
/** Per zone: minute (epoch ms / 60,000) → the offset that holds through the whole minute. */
const minuteOffsets = new Map<string, Map<number, number>>();

/**
 * `offsetAt`, kept per whole minute: Intl's formatToParts costs microseconds and placements ask
 * about the same few minutes (now plus the lead time, the slots after it). A minute is kept only
 * when its first and last millisecond have the same offset; since offsets change months apart,
 * the offset then holds through the whole minute, so the answer is exact.
 */
export function cachedOffsetAt(instant: number, timeZone: string): number {
  let zone = minuteOffsets.get(timeZone);
  if (zone === undefined) minuteOffsets.set(timeZone, (zone = new Map()));
  const minute = Math.floor(instant / MINUTE_MS);
  const known = zone.get(minute);
  if (known !== undefined) return known;
  const first = offsetAt(minute * MINUTE_MS, timeZone);
  if (offsetAt(minute * MINUTE_MS + MINUTE_MS - 1, timeZone) !== first) return offsetAt(instant, timeZone);
  if (zone.size >= MAX_CACHED_MINUTES) zone.clear();
  zone.set(minute, first);
  return first;
}
