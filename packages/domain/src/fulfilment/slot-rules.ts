/**
 * Which slots are offered (DECISIONS "Fulfilment"): the store is open at the slot's start, the
 * start is at least the lead time from now and at most the horizon ahead, and the slot has room.
 * The first three are decided here, purely; room is the SlotPlaces store's to decide.
 */
import type { FulfilmentType } from './fulfilment.js';
import type { OpeningHours } from '../store/opening-hours.js';
import type { Slot } from './slot-grid.js';

export interface SlotRules {
  /** Length of a slot; divides a day. Default 15. */
  readonly slotMinutes: number;
  /** A pickup slot starts at least this long from now. Default 20. */
  readonly pickupLeadMinutes: number;
  /** A delivery slot starts at least this long from now. Default 45. */
  readonly deliveryLeadMinutes: number;
  /** A slot starts at most this many days (of 24 h) from now. Default 7. */
  readonly scheduleDays: number;
  /** Orders per slot, pickup and delivery together; null: no limit. Default null. */
  readonly capacity: number | null;
}

export const DEFAULT_SLOT_RULES: SlotRules = Object.freeze({
  slotMinutes: 15,
  pickupLeadMinutes: 20,
  deliveryLeadMinutes: 45,
  scheduleDays: 7,
  capacity: null,
});

/** Why a slot is not offered. */
export type SlotRefusal = 'closed' | 'too_soon' | 'too_far' | 'full';

/** The time window in which offered slots start, for an order placed at `now`. */
export interface SlotWindow {
  /** The earliest start (now + lead). */
  readonly earliest: Date;
  /** The latest start (now + horizon). */
  readonly latest: Date;
}

export function slotWindow(rules: SlotRules, type: FulfilmentType, now: Date): SlotWindow {
  const leadMinutes = type === 'delivery' ? rules.deliveryLeadMinutes : rules.pickupLeadMinutes;
  return {
    earliest: new Date(now.getTime() + leadMinutes * 60_000),
    latest: new Date(now.getTime() + rules.scheduleDays * 86_400_000),
  };
}

/** Why `slot` is not offered by the clock and the schedule, or null when it is (room aside). */
export function refusalOf(slot: Slot, window: SlotWindow, hours: OpeningHours): Exclude<SlotRefusal, 'full'> | null {
  const start = slot.start.getTime();
  if (start < window.earliest.getTime()) return 'too_soon';
  if (start > window.latest.getTime()) return 'too_far';
  if (!hours.isOpen(slot.start)) return 'closed';
  return null;
}

/** The sentence a refused time is answered with (`details[].message` of `slot_unavailable`). */
export function refusalMessage(refusal: SlotRefusal, slot: Slot, window: SlotWindow): string {
  const at = slot.start.toISOString();
  switch (refusal) {
    case 'closed':
      return `the store is closed at ${at}, the start of the slot that contains this time`;
    case 'too_soon':
      return `the slot starting ${at} is too soon: the earliest slot starts at or after ${window.earliest.toISOString()}`;
    case 'too_far':
      return `the slot starting ${at} is too far ahead: slots start at most until ${window.latest.toISOString()}`;
    case 'full':
      return `the slot starting ${at} is full`;
  }
}
