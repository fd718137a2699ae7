/**
 * The page's reads of the API for the board: every open order (all pages of GET /api/staff/orders,
 * at start and after a `reset`) and single orders (GET /api/orders/{id}: one the stream named
 * before the board had it, or one refused with a 412). What they find goes to the board as an
 * action; versions decide what it keeps (board.ts).
 */
import type { Board, BoardAction, KitchenOrder } from './board.js';
import type { Session } from './session.js';

export class BoardReads {
  private rereading: Promise<void> | undefined;
  private again = false;
  private readonly reading = new Set<string>();

  constructor(
    private readonly session: Session,
    private readonly board: () => Board,
    private readonly dispatch: (action: BoardAction) => void,
  ) {}

  /** Reads every open order again; asked while a read is under way, it reads once more after it. */
  reread(): Promise<void> {
    if (this.rereading !== undefined) {
      this.again = true;
      return this.rereading;
    }
    this.rereading = this.readAll().finally(() => {
      this.rereading = undefined;
      if (this.again) {
        this.again = false;
        void this.reread();
      }
    });
    return this.rereading;
  }

  /** One order read again; a read of the same order already under way is not repeated. */
  async readOrder(id: string): Promise<void> {
    if (this.reading.has(id)) return;
    this.reading.add(id);
    try {
      this.dispatch({ kind: 'loaded', order: await this.session.call<KitchenOrder>(`/api/orders/${encodeURIComponent(id)}`) });
    } catch {
      // Gone or out of reach: the stream, or the next re-read, settles it.
    } finally {
      this.reading.delete(id);
    }
  }

  private async readAll(): Promise<void> {
    const since = this.board().seq;
    const orders: KitchenOrder[] = [];
    try {
      for (let page: number | null = 1; page !== null; ) {
        const body: { orders: KitchenOrder[]; meta: { next_page: number | null } } = await this.session.call(`/api/staff/orders?limit=100&page=${page}`);
        orders.push(...body.orders);
        page = body.meta.next_page;
      }
    } catch {
      // Out of reach: the stream's reconnection brings the banner and, once open, a new read.
      return;
    }
    this.dispatch({ kind: 'snapshot', orders, since });
  }
}
