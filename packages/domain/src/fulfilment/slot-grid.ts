/**
 * The store's days cut into slots, in its time zone: a day runs from the first instant of its date
 * on the store's wall clock to that of the next date, and its slots are `slotMinutes` of real time
 * from the day's start (the last ends with the day), so a day the clocks change has fewer or more
 * slots. Offsets change by whole quarter hours, so slots stay on the wall clock's quarter hours; a
 * slot length must divide a day (config checks it).
 */
import type { OpeningHours } from '../store/opening-hours.js';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const MAX_CACHED_DAYS = 1_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface Slot {
  readonly start: Date;
  readonly end: Date;
}

/** The grid of one store: its zone (through the opening hours) and its slot length. */
export class SlotGrid {
  private readonly slotMs: number;
  /** Day starts by wall midnight: each costs a few zone look-ups, and placements ask for the same few days. */
  private readonly dayStarts = new Map<number, number>();

  constructor(
    private readonly hours: OpeningHours,
    slotMinutes: number,
  ) {
    this.slotMs = slotMinutes * 60_000;
  }

  /** The store's date at `at`, `YYYY-MM-DD`. */
  dateAt(at: Date): string {
    const wall = at.getTime() + this.hours.offsetAt(at);
    return new Date(wall).toISOString().slice(0, 10);
  }

  /** The first instant of `date` in the store's zone (after the gap, when its midnight is skipped). */
  dayStart(date: string): Date {
    return new Date(this.startOfWallDay(wallMidnight(date)));
  }

  /** The slots of `date`, in order. */
  slotsOf(date: string): Slot[] {
    const wall = wallMidnight(date);
    const start = this.startOfWallDay(wall);
    const end = this.startOfWallDay(wall + DAY_MS);
    const slots: Slot[] = [];
    for (let t = start; t < end; t += this.slotMs) slots.push({ start: new Date(t), end: new Date(Math.min(t + this.slotMs, end)) });
    return slots;
  }

  /** The slot that contains `at`. */
  slotAt(at: Date): Slot {
    // The wall midnight of `dateAt(at)`, without formatting the date and parsing it back.
    const local = at.getTime() + this.hours.offsetAt(at);
    const wall = local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
    const dayStart = this.startOfWallDay(wall);
    const dayEnd = this.startOfWallDay(wall + DAY_MS);
    const start = dayStart + Math.floor((at.getTime() - dayStart) / this.slotMs) * this.slotMs;
    return { start: new Date(start), end: new Date(Math.min(start + this.slotMs, dayEnd)) };
  }

  /** The slot right after `slot` (on the next day after a day's last). */
  next(slot: Slot): Slot {
    return this.slotAt(slot.end);
  }

  /** The first instant whose wall clock reads `wall` (a midnight, as UTC milliseconds) or later. */
  private startOfWallDay(wall: number): number {
    const known = this.dayStarts.get(wall);
    if (known !== undefined) return known;
    if (this.dayStarts.size >= MAX_CACHED_DAYS) this.dayStarts.clear();
    const start = this.findStartOfWallDay(wall);
    this.dayStarts.set(wall, start);
    return start;
  }

  private findStartOfWallDay(wall: number): number {
    // The offset at midnight is one of the offsets in force around it (zones move by hours at most 26 apart).
    let best = Number.POSITIVE_INFINITY;
    for (const near of [wall - 14 * HOUR_MS, wall, wall + 14 * HOUR_MS]) {
      const t = wall - this.hours.offsetAt(new Date(near));
      if (t + this.hours.offsetAt(new Date(t)) >= wall && t < best) best = t;
    }
    return best;
  }
}

/** Whether `text` is a calendar date `YYYY-MM-DD`. */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (match === null) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  // setUTCFullYear, not Date.UTC: the latter reads years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

function wallMidnight(date: string): number {
  if (!isCalendarDate(date)) throw new RangeError(`not a calendar date: ${date}`);
  return Date.parse(`${date}T00:00:00Z`);
}

