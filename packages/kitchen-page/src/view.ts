/**
 * The board's DOM, drawn from the board's data (board.ts) and nothing else. Cards are kept by order
 * id and redrawn only when their version or notice changes, so that a second screen's move does
 * not rebuild the whole board; the countdowns are updated in place once a second (`tick`). Text is
 * set with textContent only: nothing from the API is ever parsed as HTML.
 */
import { columns, type Board, type KitchenOrder } from './board.js';
import { clockTime, dueOf } from './due.js';
import { el } from './dom.js';
import { totalText } from './total.js';
import { paymentBadge } from './payment.js';
import { COLUMN_TITLES, MOVES, OPEN_STATUSES, type OpenStatus } from './lifecycle.js';

interface Drawn {
  readonly element: HTMLLIElement;
  readonly order: KitchenOrder;
  readonly notice: string | undefined;
}

export class BoardView {
  private readonly lists = new Map<OpenStatus, HTMLOListElement>();
  private readonly counts = new Map<OpenStatus, HTMLElement>();
  private readonly drawn = new Map<string, Drawn>();

  constructor(root: HTMLElement) {
    for (const status of OPEN_STATUSES) {
      const column = el('section', 'column');
      column.dataset['status'] = status;
      const heading = el('h2', 'column-title');
      heading.id = `column-${status}`;
      const count = el('span', 'count');
      heading.append(COLUMN_TITLES[status], ' ', count);
      column.setAttribute('aria-labelledby', heading.id);
      const list = el('ol', 'cards');
      column.append(heading, list);
      root.append(column);
      this.lists.set(status, list);
      this.counts.set(status, count);
    }
  }

  /** Draws the board; `notices` are messages shown on single cards (a 412, say). */
  render(board: Board, notices: ReadonlyMap<string, string>, now: number): void {
    const byStatus = columns(board);
    const shown = new Set<string>();
    for (const status of OPEN_STATUSES) {
      const orders = byStatus[status];
      const elements = orders.map((order) => {
        shown.add(order.order_id);
        return this.card(order, notices.get(order.order_id), now);
      });
      const list = this.lists.get(status)!;
      // Moved only when the order changed: moving a card takes the focus off its buttons.
      if (elements.length !== list.children.length || elements.some((element, i) => list.children[i] !== element)) list.replaceChildren(...elements);
      this.counts.get(status)!.textContent = `(${orders.length})`;
    }
    for (const id of this.drawn.keys()) if (!shown.has(id)) this.drawn.delete(id);
  }

  /** The countdowns, once a second. */
  tick(now: number): void {
    for (const { element, order } of this.drawn.values()) showDue(element, order, now);
  }

  private card(order: KitchenOrder, notice: string | undefined, now: number): HTMLLIElement {
    const drawn = this.drawn.get(order.order_id);
    if (drawn !== undefined && drawn.order.version === order.version && drawn.notice === notice) return drawn.element;
    const element = drawCard(order, notice, now);
    this.drawn.set(order.order_id, { element, order, notice });
    return element;
  }
}

/** "#7X3R": the end of the id, which is what differs between orders placed close together. */
export function shortRef(orderId: string): string {
  return `#${orderId.slice(-4).toUpperCase()}`;
}

function drawCard(order: KitchenOrder, notice: string | undefined, now: number): HTMLLIElement {
  const ref = shortRef(order.order_id);
  const item = el('li', 'card');
  item.dataset['orderId'] = order.order_id;
  item.dataset['version'] = String(order.version);
  const article = el('article');
  const titleId = `order-${order.order_id}`;
  article.setAttribute('aria-labelledby', titleId);

  const head = el('header', 'card-head');
  const title = el('h3', 'ref', ref);
  title.id = titleId;
  const fulfilment = order.fulfilment?.type ?? 'pickup';
  head.append(title, el('span', `kind ${fulfilment}`, fulfilment === 'delivery' ? 'Delivery' : 'Pickup'));
  const payment = paymentBadge(order);
  if (payment !== null) head.append(el('span', `payment ${payment.tone}`, payment.text));
  head.append(el('span', 'due'));

  const promised = order.fulfilment?.promised_at;
  const when = el('p', 'when', promised === undefined ? `ASAP · placed ${clockTime(order.created_at)}` : `for ${clockTime(promised)} · placed ${clockTime(order.created_at)}`);

  const items = el('ul', 'items');
  for (const line of order.items) {
    const row = el('li');
    row.append(el('strong', 'qty', `${line.quantity}×`), ` ${line.name}`);
    const options = line.options ?? [];
    if (options.length > 0) row.append(el('span', 'options', options.map((option) => option.name).join(', ')));
    items.append(row);
  }
  article.append(head, when, items);
  const total = totalText(order);
  if (total !== null) article.append(el('p', 'total', total));

  const address = order.fulfilment?.address;
  if (address !== undefined) {
    const text = [address.line1, address.line2, `${address.postal_code} ${address.city}`].filter((part) => part !== undefined && part !== '').join(', ');
    article.append(el('p', 'address', text));
    if (address.instructions !== undefined) article.append(el('p', 'instructions', address.instructions));
  }
  if (notice !== undefined) {
    const note = el('p', 'notice', notice);
    note.setAttribute('role', 'status');
    article.append(note);
  }

  const moves = el('div', 'moves');
  for (const move of MOVES[order.status as OpenStatus] ?? []) {
    const button = el('button', move.needsReason ? 'move secondary' : 'move primary', move.label);
    button.type = 'button';
    button.dataset['move'] = move.to;
    button.setAttribute('aria-label', `${move.label} order ${ref}`);
    moves.append(button);
  }
  article.append(moves);
  item.append(article);
  showDue(item, order, now);
  return item;
}

function showDue(card: HTMLElement, order: KitchenOrder, now: number): void {
  const due = dueOf(order, now);
  const label = card.querySelector<HTMLElement>('.due');
  if (label !== null && label.textContent !== due.text) label.textContent = due.text;
  card.classList.toggle('late', due.late);
}
