/**
 * What a card says about time. An order with a promised time (`fulfilment.promised_at`) counts down
 * to it and is late once it has passed; an order without one (placed before fulfilment existed:
 * pickup, as soon as possible) shows how long it has waited, and is never called late, since
 * nobody promised a time for it.
 */
import { type KitchenOrder } from './board.js';

export interface Due {
  /** "due in 12:05", "late 3:10", "waiting 4:00". */
  readonly text: string;
  readonly late: boolean;
}

export function dueOf(order: KitchenOrder, now: number): Due {
  const promised = order.fulfilment?.promised_at;
  if (promised === undefined) return { text: `waiting ${duration(now - Date.parse(order.created_at))}`, late: false };
  const left = Date.parse(promised) - now;
  return left >= 0 ? { text: `due in ${duration(left)}`, late: false } : { text: `late ${duration(-left)}`, late: true };
}

/** m:ss under an hour, h:mm:ss above; a negative span (a clock ahead of the server's) reads 0:00. */
export function duration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const seconds = String(total % 60).padStart(2, '0');
  const minutes = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The time of day it is due, in the browser's zone: "12:30". */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}
