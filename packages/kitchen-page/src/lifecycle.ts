/**
 * The order lifecycle as the kitchen sees it (DECISIONS "Order lifecycle"): the open statuses in
 * the order of the board's columns, and the moves staff may make from each. The server decides;
 * this only chooses which buttons a card shows.
 */
export const OPEN_STATUSES = ['placed', 'accepted', 'preparing', 'ready'] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];
export type Status = OpenStatus | 'completed' | 'rejected' | 'cancelled';

export interface Move {
  readonly to: Status;
  /** The button's text. */
  readonly label: string;
  /** Rejections and staff cancellations need a reason (1–200 characters). */
  readonly needsReason: boolean;
}

/** The longest reason the API takes. */
export const REASON_MAX_LENGTH = 200;

const CANCEL: Move = { to: 'cancelled', label: 'Cancel', needsReason: true };

export const MOVES: Readonly<Record<OpenStatus, readonly Move[]>> = {
  placed: [{ to: 'accepted', label: 'Accept', needsReason: false }, { to: 'rejected', label: 'Reject', needsReason: true }, CANCEL],
  accepted: [{ to: 'preparing', label: 'Start preparing', needsReason: false }, CANCEL],
  preparing: [{ to: 'ready', label: 'Mark ready', needsReason: false }, CANCEL],
  ready: [{ to: 'completed', label: 'Hand over', needsReason: false }],
};

export const COLUMN_TITLES: Readonly<Record<OpenStatus, string>> = {
  placed: 'New',
  accepted: 'Accepted',
  preparing: 'Preparing',
  ready: 'Ready',
};

export function isOpen(status: string): status is OpenStatus {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}
