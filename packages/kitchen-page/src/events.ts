/**
 * The staff stream's order events as board actions: `order.placed` (the order), `order.status` (a
 * move), `order.refunded` (a refund and the payment with it), `order.payment` (a refund settled:
 * the payment). Anything else, or anything this page
 * cannot read, is null: skipped, and the next re-read shows the order as it is.
 */
import type { BoardAction, KitchenOrder, RefundChange, StatusChange } from './board.js';

export function boardAction(type: string, data: string): BoardAction | null {
  try {
    if (type === 'order.placed') return { kind: 'placed', order: JSON.parse(data) as KitchenOrder };
    if (type === 'order.status') return { kind: 'status', change: JSON.parse(data) as StatusChange };
    if (type === 'order.refunded' || type === 'order.payment') return { kind: 'refunded', change: JSON.parse(data) as RefundChange };
  } catch {
    // Unreadable: skipped.
  }
  return null;
}
