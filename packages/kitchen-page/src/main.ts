/**
 * The kitchen display (GET /kitchen): signs a staff account in, keeps the board (board.ts) in step
 * with the API and its stream, and draws it (view.ts); every change goes through `dispatch`. No
 * gap: the stream is opened first, the open orders are read once it answers, and again after a
 * `reset` or a stream opened without Last-Event-ID; what arrives meanwhile is applied, versions
 * decide.
 */
import { apply, awaited, EMPTY_BOARD, type Board, type BoardAction, type KitchenOrder } from './board.js';
import { boardAction } from './events.js';
import { Chime } from './chime.js';
import { isOpen, MOVES, REASON_MAX_LENGTH, type Move } from './lifecycle.js';
import { LiveFeed } from './live.js';
import { StorePanel } from './panel.js';
import { ApiError, Session } from './session.js';
import { BoardView, shortRef } from './view.js';
import { ask } from './reason-dialog.js';
import { BoardReads } from './reads.js';
import { byId } from './dom.js';

/** Roles that may use the kitchen (DECISIONS "Roles": admin is staff and more). */
const STAFF_ROLES = new Set(['staff', 'admin']);

let board: Board = EMPTY_BOARD;
const notices = new Map<string, string>();
const chime = new Chime();
const view = new BoardView(byId('board'));
let session: Session | undefined;
let feed: LiveFeed | undefined;
let panel: StorePanel | undefined;
let reads: BoardReads | undefined;

function dispatch(action: BoardAction): void {
  const before = board;
  board = apply(board, action);
  if (board === before) return;
  if (board.arrivals > before.arrivals) chime.ring();
  view.render(board, notices, Date.now());
  for (const id of awaited(board)) void reads?.readOrder(id);
}

// ---------------------------------------------------------------------------------------------
// Signing in and out

byId<HTMLFormElement>('sign-in-form').addEventListener('submit', (event) => {
  event.preventDefault();
  chime.unlock();
  const form = new FormData(event.target as HTMLFormElement);
  void signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''));
});

async function signIn(email: string, password: string): Promise<void> {
  const error = byId('sign-in-error');
  const submit = byId<HTMLButtonElement>('sign-in-submit');
  error.textContent = '';
  submit.disabled = true;
  try {
    const candidate = await Session.signIn(email, password, (reason) => void signOut(reason));
    const me = await candidate.call<{ role?: string; email: string }>('/api/me');
    if (!STAFF_ROLES.has(me.role ?? 'customer')) {
      await candidate.signOut();
      error.textContent = `${me.email} is not a staff account: the kitchen display is for kitchen staff only.`;
      return;
    }
    session = candidate;
    start(me.email);
  } catch (caught) {
    error.textContent = caught instanceof ApiError && caught.problem.error === 'invalid_credentials' ? 'Wrong email or password.' : `Could not sign in: ${(caught as Error).message}`;
  } finally {
    submit.disabled = false;
  }
}

function start(email: string): void {
  const current = session!;
  byId('sign-in').hidden = true;
  byId('workspace').hidden = false;
  byId('toolbar').hidden = false;
  byId('who').textContent = email;
  panel = new StorePanel(current, { state: byId('store-state'), pause: byId('pause'), dishes: byId('dishes'), message: byId('panel-message') });
  void panel.load();
  // A read that answers after a sign-out belongs to the old session: dropped.
  reads = new BoardReads(current, () => board, (action) => session === current && dispatch(action));
  feed = new LiveFeed(current, {
    connected: (resumed) => {
      byId('banner').hidden = true;
      if (!resumed) void reads?.reread();
    },
    disconnected: () => {
      byId('banner').hidden = false;
    },
    event: (event) => onEvent(event.type, event.data),
    refused: () => void signOut('This account is no longer a staff account.'),
  });
  feed.start();
}

async function signOut(reason: string): Promise<void> {
  feed?.stop();
  feed = undefined;
  reads = undefined;
  await session?.signOut();
  session = undefined;
  board = EMPTY_BOARD;
  notices.clear();
  view.render(board, notices, Date.now());
  byId('workspace').hidden = true;
  byId('toolbar').hidden = true;
  byId('banner').hidden = true;
  byId('sign-in').hidden = false;
  byId('sign-in-error').textContent = reason;
}

byId('sign-out').addEventListener('click', () => void signOut('Signed out.'));

// ---------------------------------------------------------------------------------------------
// Events and reads

function onEvent(type: string, data: string): void {
  if (type === 'reset') return void reads?.reread();
  const action = boardAction(type, data);
  if (action !== null) dispatch(action);
}

// ---------------------------------------------------------------------------------------------
// Moves

byId('board').addEventListener('click', (event) => {
  const button = (event.target as HTMLElement).closest<HTMLButtonElement>('button[data-move]');
  const card = button?.closest<HTMLElement>('[data-order-id]');
  if (button == null || card == null) return;
  const order = board.orders[card.dataset['orderId'] ?? ''];
  const move = order === undefined || !isOpen(order.status) ? undefined : MOVES[order.status].find((allowed) => allowed.to === button.dataset['move']);
  if (order !== undefined && move !== undefined) void makeMove(order, move, button);
});

async function makeMove(order: KitchenOrder, move: Move, button: HTMLButtonElement): Promise<void> {
  const current = session;
  if (current === undefined) return;
  let reason: string | undefined;
  if (move.needsReason) {
    reason = await ask(`${move.label} order ${shortRef(order.order_id)}`, REASON_MAX_LENGTH);
    if (reason === undefined) return;
  }
  button.disabled = true;
  const id = order.order_id;
  try {
    const moved = await current.call<KitchenOrder>(`/api/staff/orders/${encodeURIComponent(id)}/status`, {
      method: 'POST',
      headers: { 'If-Match': `"${order.version}"` },
      body: reason === undefined ? { status: move.to } : { status: move.to, reason },
    });
    notices.delete(id);
    dispatch({ kind: 'loaded', order: moved });
  } catch (error) {
    const conflict = error instanceof ApiError && (error.status === 412 || error.status === 409);
    notices.set(id, conflict ? 'This order was changed on another screen: reloaded, check it and try again.' : `Not moved: ${(error as Error).message}`);
    if (conflict) await reads?.readOrder(id);
    view.render(board, notices, Date.now());
  } finally {
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Sound, panel, countdowns

const mute = byId<HTMLButtonElement>('mute');
mute.addEventListener('click', () => {
  chime.muted = !chime.muted;
  mute.setAttribute('aria-pressed', String(chime.muted));
  mute.textContent = chime.muted ? 'Sound off' : 'Sound on';
});

const panelToggle = byId<HTMLButtonElement>('panel-toggle');
panelToggle.addEventListener('click', () => {
  const open = panelToggle.getAttribute('aria-expanded') !== 'true';
  panelToggle.setAttribute('aria-expanded', String(open));
  byId('panel').hidden = !open;
  if (open) void panel?.load();
});

setInterval(() => view.tick(Date.now()), 1000);
