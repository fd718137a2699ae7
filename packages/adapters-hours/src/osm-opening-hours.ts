/**
 * The OpeningHours port over the `opening_hours` library: the OpenStreetMap syntax store owners
 * know from maps, parsed and evaluated with far more care than a hand-written parser would get.
 * The library reads a Date through its local getters (the process's zone), so it is never handed a
 * real instant: it gets a Date whose local fields read the store's wall clock, and its answers are
 * mapped back to instants (zoned-time.ts).
 */
import OpeningHoursLibrary from 'opening_hours';
import type { optional_conf } from 'opening_hours';
import { type OpeningHours } from '@storefront/domain';
import { alwaysOpen } from '@storefront/domain/adapter-kit';
import { cachedOffsetAt, fromLocalDate, isValidTimeZone, nextTransition, offsetAt, toLocalDate, wallTimeAt } from './zoned-time.js';

const DAY_MS = 86_400_000;

/** How far `nextChange` looks ahead before it answers null: the library's own default limit. */
const SEARCH_HORIZON_MS = 5 * 366 * DAY_MS;

/** Bound on `nextChange`'s walk; each step is a change of the schedule or a clock change. */
const MAX_SEARCH_STEPS = 1_000;

const LIBRARY_OPTIONS: optional_conf = {
  tag_key: 'opening_hours', // time ranges only (points in time such as `Mo 12:00` are refused)
  locale: 'en', // the language of the library's error messages and warnings
  mode: undefined,
  map_value: undefined,
  warnings_severity: undefined,
};

const EXAMPLE = 'e.g. "Mo-Fr 11:00-22:00; Sa,Su 12:00-23:00"';

/** A schedule or a time zone that cannot be used; the message names the offending value. */
export class OpeningHoursError extends Error {
  override readonly name = 'OpeningHoursError';
}

/** Opening hours as parsed, with what the library had to say about the schedule. */
export interface ParsedOpeningHours extends OpeningHours {
  /**
   * The library's remarks on an accepted schedule, one sentence each (a spelling it corrected,
   * such as `10-18` for `10:00-18:00`, or a date already past): worth a log line, not a refusal,
   * since a date in the schedule that passes would otherwise stop the app from starting.
   */
  readonly warnings: readonly string[];
}

/**
 * Opening hours for `schedule` (OpenStreetMap `opening_hours` syntax) read in the IANA zone
 * `timeZone`. No schedule (undefined, empty or blank) means always open.
 *
 * @throws OpeningHoursError when the zone is unknown, or the schedule is not valid or not one this
 *   store can evaluate (public or school holidays, sun times, or times whose state is unknown).
 */
export function createOpeningHours(schedule: string | undefined, timeZone: string): ParsedOpeningHours {
  if (!isValidTimeZone(timeZone)) {
    throw new OpeningHoursError(`"${timeZone}" is not a valid IANA time zone (e.g. "Europe/Berlin" or "UTC").`);
  }
  const value = schedule?.trim() ?? '';
  if (value === '') return { ...alwaysOpen(timeZone, (at) => cachedOffsetAt(at.getTime(), timeZone)), warnings: [] };
  return new OsmOpeningHours(value, timeZone);
}

class OsmOpeningHours implements ParsedOpeningHours {
  readonly warnings: readonly string[];
  readonly #library: OpeningHoursLibrary;

  constructor(
    readonly schedule: string,
    readonly timeZone: string,
  ) {
    this.#library = parse(schedule);
    this.warnings = Object.freeze(this.#library.getWarnings());
  }

  isOpen(at: Date): boolean {
    return this.#openAtWall(wallTimeAt(at.getTime(), this.timeZone));
  }

  /**
   * Walks forward from `at`. Between two clock changes of the zone the wall clock is the instant
   * plus a fixed offset, so the library's next change of state (a wall time) maps back by that
   * offset. A clock change on the way ends the step: the wall clock jumps there, the state is
   * read again on the far side, and the walk goes on from it. What follows for the two kinds of
   * jump, e.g. in Europe/Berlin:
   * - Gap (spring forward, 02:00 → 03:00): a schedule boundary at a wall time that never occurs
   *   (02:30) takes effect at the instant right after the gap (03:00 summer time), when the state
   *   read there differs; a range wholly inside the gap never opens.
   * - Overlap (fall back, 03:00 → 02:00): an ambiguous wall time is first reached at the earlier of
   *   its two instants (02:30 summer time), which is what `nextChange` answers from before it. The
   *   state is read from the wall clock, so when the clock falls back the repeated hour is read
   *   again: a boundary inside it takes effect a second time.
   */
  nextChange(at: Date): Date | null {
    const start = at.getTime();
    const open = this.isOpen(at);
    const horizon = start + SEARCH_HORIZON_MS;
    // Fast path (24/7, closed): no change from a day before the wall clock now, so none whatever
    // the clock does, since it never falls back by a day.
    const earliestWall = wallTimeAt(start, this.timeZone) - DAY_MS;
    if (this.#nextChangeOfWall(earliestWall, earliestWall + SEARCH_HORIZON_MS + DAY_MS) === null) return null;

    let cursor = start;
    for (let steps = 0; steps < MAX_SEARCH_STEPS && cursor < horizon; steps++) {
      const offset = offsetAt(cursor, this.timeZone);
      const wallChange = this.#nextChangeOfWall(cursor + offset, horizon + offset);
      const change = wallChange === null ? horizon : Math.max(wallChange - offset, cursor + 1);
      const jump = nextTransition(cursor, Math.min(change, horizon), this.timeZone);
      if (jump === null && wallChange === null) return null;
      const next = jump ?? change;
      if (next > horizon) return null;
      if (this.#openAtWall(wallTimeAt(next, this.timeZone)) !== open) return new Date(next);
      cursor = next;
    }
    return null;
  }

  offsetAt(at: Date): number {
    return cachedOffsetAt(at.getTime(), this.timeZone);
  }

  #openAtWall(wallTime: number): boolean {
    // `getState` is false for the library's third state, unknown; parse() refuses schedules that
    // have one, so false here means closed.
    return this.#evaluate(() => this.#library.getState(toLocalDate(wallTime)));
  }

  /** The wall time of the library's next change of state after `wallTime`, up to `limit`. */
  #nextChangeOfWall(wallTime: number, limit: number): number | null {
    const next = this.#evaluate(() => this.#library.getNextChange(toLocalDate(wallTime), toLocalDate(limit)));
    return next === undefined ? null : fromLocalDate(next);
  }

  #evaluate<T>(evaluation: () => T): T {
    try {
      return evaluation();
    } catch (error) {
      // The library throws strings; a schedule that parsed can still fail on some dates.
      throw new OpeningHoursError(`The opening hours "${this.schedule}" could not be evaluated: ${describe(error)}`, {
        cause: error,
      });
    }
  }
}

/**
 * The library's reading of `schedule`, or OpeningHoursError. Refused beyond the syntax:
 * - Public and school holidays (`PH`, `SH`): which days they are depends on the country and
 *   region, and the store has no location. Without one (`nominatim` argument left out) the library
 *   refuses them itself; with `null` it would silently use a town in Baden-Württemberg, Germany,
 *   which is why this adapter never passes null. A schedule that parses only with a location is
 *   refused with a message saying so; closed days can be listed as dates instead (`Dec 25 off`).
 * - Sun times (`sunrise`, `sunset`, `dawn`, `dusk`): without a location the library uses fixed
 *   stand-ins (06:00, 18:00 …), which would be wrong while looking right.
 * - Times whose state is unknown (an open end `18:00+`, the `unknown` keyword, a comment with no
 *   `open` before it, a `||` fallback): the library reports them as not open, so a store would be
 *   closed where its owner meant "open, probably". An order needs a yes or a no.
 */
function parse(schedule: string): OpeningHoursLibrary {
  let library: OpeningHoursLibrary;
  try {
    library = new OpeningHoursLibrary(schedule, undefined, LIBRARY_OPTIONS);
  } catch (error) {
    if (parsesWithLocation(schedule)) {
      throw new OpeningHoursError(
        `The opening hours "${schedule}" use public or school holidays (PH, SH), which depend on ` +
          'where the store is, and the store has no location: list the days as dates instead (e.g. "Dec 25 off").',
        { cause: error },
      );
    }
    throw new OpeningHoursError(
      `The opening hours "${schedule}" are not valid OpenStreetMap opening_hours syntax (${EXAMPLE}): ${describe(error)}`,
      { cause: error },
    );
  }
  const withoutComments = library.prettifyValue().replace(/"[^"]*"/g, '""');
  const sunTime = /\b(sunrise|sunset|dawn|dusk)\b/i.exec(withoutComments);
  if (sunTime !== null) {
    throw new OpeningHoursError(
      `The opening hours "${schedule}" use "${sunTime[1]}", which depends on where the store is, and the store has ` +
        'no location: use clock times instead.',
    );
  }
  const from = new Date();
  const until = new Date(from.getTime() + 366 * DAY_MS);
  const [, unknownMs] = library.getOpenDuration(from, until);
  if (unknownMs > 0) {
    throw new OpeningHoursError(
      `The opening hours "${schedule}" leave the store's state unknown at some times (an open end such as ` +
        '"18:00+", "unknown", a comment with no "open" before it, or a "||" fallback): say "open" or ' +
        '"closed" (e.g. Mo-Fr 10:00-18:00 open "call ahead").',
    );
  }
  return library;
}

/** Whether the library accepts `schedule` once given a location (its stand-in one, for null). */
function parsesWithLocation(schedule: string): boolean {
  try {
    new OpeningHoursLibrary(schedule, null, LIBRARY_OPTIONS);
    return true;
  } catch {
    return false;
  }
}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.trim();
}
