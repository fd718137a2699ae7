/**
 * Port: when the store takes orders by the clock. Pure (no I/O): an adapter parses a schedule once
 * (OpenStreetMap `opening_hours` syntax in production, see @storefront/adapters-hours) and answers
 * for any instant in the store's IANA time zone.
 */
export interface OpeningHours {
  /** The schedule as configured (e.g. `Mo-Fr 11:00-22:00`), or null when the store is always open. */
  readonly schedule: string | null;
  /** IANA time zone the schedule is read in, e.g. `Europe/Berlin`. */
  readonly timeZone: string;
  /** Whether the schedule has the store open at `at`. */
  isOpen(at: Date): boolean;
  /** The first instant after `at` at which `isOpen` changes, or null when it never does. */
  nextChange(at: Date): Date | null;
  /**
   * The zone's offset from UTC at `at`, in milliseconds (wall clock = instant + offset): what the
   * slot grid needs to find the store's days (slot-grid.ts).
   */
  offsetAt(at: Date): number;
}

/**
 * A store without opening hours: always open, in `timeZone` (default UTC). `offsetAt` is the
 * zone's offset: the domain has no time zone data, so a zone other than UTC needs it from an
 * adapter (`createOpeningHours` of @storefront/adapters-hours passes its own).
 */
export function alwaysOpen(timeZone = 'UTC', offsetAt: (at: Date) => number = () => 0): OpeningHours {
  return { schedule: null, timeZone, isOpen: () => true, nextChange: () => null, offsetAt };
}
