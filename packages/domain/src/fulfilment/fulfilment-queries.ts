/** What a client asks before ordering: the offered slots of a day, and the delivery quote of an address. */
import { DomainError } from '../shared/errors.js';
import type { FulfilmentPlanner } from './fulfilment-planner.js';
import { isCalendarDate } from './slot-grid.js';
import { FULFILMENT_TYPES, type FulfilmentType } from './fulfilment.js';
import { Issues } from '../shared/validation.js';
import type { DeliveryZone } from './delivery-zones.js';
import type { Clock } from '../shared/security.js';

export interface ListSlotsInput {
  /** `pickup` (default) or `delivery`: their lead times differ. */
  readonly type?: string | undefined;
  /** The store's date, `YYYY-MM-DD`; default today. */
  readonly date?: string | undefined;
}

export interface OfferedSlot {
  readonly start: Date;
  readonly end: Date;
  /** Places left; null when slots have no limit. */
  readonly remaining: number | null;
}

export interface SlotList {
  readonly date: string;
  readonly timeZone: string;
  readonly slotMinutes: number;
  readonly slots: readonly OfferedSlot[];
}

/** `GET /api/store/slots`: a day's offered slots (a day in the past or beyond the horizon has none). */
export class ListSlots {
  constructor(
    private readonly planner: FulfilmentPlanner,
    private readonly timeZone: string,
    private readonly clock: Clock,
  ) {}

  async execute(input: ListSlotsInput): Promise<SlotList> {
    const issues = new Issues();
    const type = input.type ?? 'pickup';
    if (!(FULFILMENT_TYPES as readonly string[]).includes(type)) issues.add('type', `must be one of ${FULFILMENT_TYPES.join(', ')}`);
    const date = input.date ?? this.planner.grid.dateAt(this.clock.now());
    if (!isCalendarDate(date)) issues.add('date', 'must be a calendar date YYYY-MM-DD (in the store\'s time zone)');
    issues.throwIfAny();
    const offered = await this.planner.offered(type as FulfilmentType, date);
    return {
      date,
      timeZone: this.timeZone,
      slotMinutes: this.planner.rules.slotMinutes,
      slots: offered.map(({ slot, remaining }) => ({ start: slot.start, end: slot.end, remaining })),
    };
  }
}

/** `GET /api/store/delivery-quote`: the zone, fee and minimum order for a point, or why not. */
export class QuoteDelivery {
  constructor(private readonly planner: FulfilmentPlanner) {}

  execute(input: { readonly lat: unknown; readonly lng: unknown }): DeliveryZone {
    const issues = new Issues();
    const inRange = (value: unknown, bound: number): value is number =>
      typeof value === 'number' && Number.isFinite(value) && value >= -bound && value <= bound;
    if (!inRange(input.lat, 90)) issues.add('lat', 'is required: a number of degrees from -90 to 90 (WGS 84)');
    if (!inRange(input.lng, 180)) issues.add('lng', 'is required: a number of degrees from -180 to 180 (WGS 84)');
    issues.throwIfAny();
    try {
      return this.planner.quote(input.lat as number, input.lng as number);
    } catch (error) {
      // The same refusal as an order's, about the query's point rather than an order's address.
      if (error instanceof DomainError && error.code === 'outside_delivery_area') {
        throw new DomainError(error.code, error.message, { details: [{ path: 'lat', message: 'this point is outside every delivery zone' }] });
      }
      throw error;
    }
  }
}
