/** What a client asks before ordering a time: the offered slots of a day. */
import type { Clock } from '../shared/security.js';
import { Issues } from '../shared/validation.js';
import type { FulfilmentPlanner } from './fulfilment-planner.js';
import { FULFILMENT_TYPES, type FulfilmentType } from './fulfilment.js';
import { isCalendarDate } from './slot-grid.js';

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
