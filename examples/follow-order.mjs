#!/usr/bin/env node
/**
 * Following one order live over Server-Sent Events (GET /api/orders/{order_id}/events), with
 * nothing but Node's fetch: what a phone app or a web page does while the kitchen cooks.
 *
 *   pnpm start                                   # in another terminal: http://127.0.0.1:3000, demo data
 *   node examples/follow-order.mjs               # logs in as alice, places an order, follows it
 *   node examples/follow-order.mjs --order ord_… # follows an order of alice's already placed
 *   STOREFRONT_URL=http://127.0.0.1:4000 STOREFRONT_TOKEN=… STOREFRONT_REFRESH_TOKEN=… \
 *     node examples/follow-order.mjs --order ord_…
 *
 * Then move the order as the kitchen (README: `POST /api/staff/orders/{order_id}/status`); each
 * new status is printed once, and the example exits 0 when the order is completed, rejected or
 * cancelled. What a live client has to get right, and where this one does it:
 *
 *  - the stream ends (the access token's expiry, a logout, a server restart) or the connection
 *    drops: wait the `retry:` the server asked for and reconnect with `Last-Event-ID`, which
 *    replays what was missed meanwhile (`follow`);
 *  - a reconnection answered 401 (the token expired): trade the refresh token for a new pair
 *    (`POST /api/auth/refresh`, single use: keep the new one) and reconnect (`refresh`);
 *  - `event: reset` (the id is too old to replay): re-read the order (`GET /api/orders/{id}`);
 *  - an `order.status` whose version it has already shown (a replay overlapping a re-read) is
 *    skipped: versions only grow.
 *
 * Output, one line each: `order <id> placed`, `following <id> at <url>`, `status: <status>
 * (version <n>)`, `stream ended; reconnecting in <ms> ms after event <id>`, `token refreshed`,
 * `reset: re-read the order`, `done: <status>`.
 */
import { parseArgs } from 'node:util';

const FINAL = new Set(['completed', 'rejected', 'cancelled']);
const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    order: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
  },
});
const base = (args.url ?? process.env.STOREFRONT_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
const session = { access: process.env.STOREFRONT_TOKEN, refresh: process.env.STOREFRONT_REFRESH_TOKEN };

async function call(method, path, body, auth = true) {
  const headers = { accept: 'application/json' };
  if (auth) headers.authorization = `Bearer ${session.access}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function fail(message) {
  console.error(`follow-order: ${message}`);
  process.exit(1);
}

async function login(email, password) {
  const { status, body } = await call('POST', '/api/auth/login', { email, password }, false);
  if (status !== 200) fail(`login as ${email}: ${status} ${body?.error ?? ''}`);
  session.access = body.access_token;
  session.refresh = body.refresh_token;
}

/** A new token pair for the refresh token (which is used up: the new one replaces it). */
async function refresh() {
  if (session.refresh === undefined) fail('the access token is no longer accepted, and there is no refresh token to renew it');
  const { status, body } = await call('POST', '/api/auth/refresh', { refresh_token: session.refresh }, false);
  if (status !== 200) fail(`refresh: ${status} ${body?.error ?? ''} (log in again)`);
  session.access = body.access_token;
  session.refresh = body.refresh_token;
  console.log('token refreshed');
}

/** A call with the access token; refused with 401 (expired meanwhile), once more after a refresh. */
async function authed(method, path, body) {
  const answer = await call(method, path, body);
  if (answer.status !== 401) return answer;
  await refresh();
  return call(method, path, body);
}

/** A dish that needs no option chosen, ordered once. */
async function placeOrder() {
  const { body: menu } = await call('GET', '/api/products', undefined, false);
  const dish = menu.products.find((p) => p.available && (p.option_groups ?? []).every((group) => group.min === 0));
  if (dish === undefined) fail('no dish on the menu can be ordered without options');
  const { status, body } = await authed('POST', '/api/orders', { items: [{ product_id: dish.product_id, quantity: 1 }] });
  if (status !== 201) fail(`placing the order: ${status} ${body?.error ?? ''}`);
  console.log(`order ${body.order_id} placed`);
  return body.order_id;
}

const state = { version: 0, status: undefined, lastEventId: undefined, retryMs: 3000 };

/** A status, unless this version (or a later one) was shown already. */
function show(status, version, how = '') {
  if (version <= state.version) return;
  state.version = version;
  state.status = status;
  console.log(`status: ${status} (version ${version}${how})`);
  if (FINAL.has(status)) {
    console.log(`done: ${status}`);
    process.exit(0);
  }
}

async function onEvent(orderId, { type, data, id }) {
  if (id !== undefined) state.lastEventId = id;
  if (type === 'order.status') {
    const change = JSON.parse(data);
    show(change.status, change.version);
  } else if (type === 'reset') {
    console.log('reset: re-read the order');
    const { status, body } = await authed('GET', `/api/orders/${orderId}`);
    if (status === 200) show(body.status, body.version, ', re-read');
  }
}

/**
 * One connection: the events it brings, until the server ends the stream or the connection drops.
 * Answers 'unauthorized' when the token was refused before anything was streamed.
 */
async function stream(orderId) {
  const headers = { accept: 'text/event-stream', authorization: `Bearer ${session.access}` };
  if (state.lastEventId !== undefined) headers['last-event-id'] = state.lastEventId;
  const response = await fetch(`${base}/api/orders/${orderId}/events`, { headers });
  if (response.status === 401) {
    await response.body?.cancel();
    return 'unauthorized';
  }
  if (response.status === 429) {
    await response.body?.cancel();
    return 'busy';
  }
  if (response.status !== 200) fail(`GET /api/orders/${orderId}/events: ${response.status} ${await response.text()}`);

  // The text/event-stream format (WHATWG HTML §9.2): lines; a blank line ends an event.
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let event = { type: 'message', data: [], id: undefined };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return 'ended';
    buffer += value;
    // A lone CR at the very end may be the first half of a CRLF: it waits for the next chunk.
    const lines = buffer.split(/\r\n|\r(?!$)|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === '') {
        if (event.data.length > 0) await onEvent(orderId, { type: event.type, data: event.data.join('\n'), id: event.id });
        event = { type: 'message', data: [], id: undefined };
        continue;
      }
      if (line.startsWith(':')) continue; // a comment: `: ping`
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event.type = text;
      else if (field === 'data') event.data.push(text);
      else if (field === 'id') event.id = text;
      else if (field === 'retry' && /^\d+$/.test(text)) state.retryMs = Number(text);
    }
  }
}

async function follow(orderId) {
  console.log(`following ${orderId} at ${base}`);
  for (;;) {
    let outcome;
    try {
      outcome = await stream(orderId);
    } catch (error) {
      // The connection dropped (or could not be made): the same as an ended stream.
      outcome = `dropped (${error.cause?.code ?? error.code ?? error.message})`;
    }
    if (outcome === 'unauthorized') {
      await refresh();
      continue;
    }
    const after = state.lastEventId === undefined ? 'before any event' : `after event ${state.lastEventId}`;
    console.log(`stream ${outcome === 'busy' ? 'refused (too many open)' : outcome}; reconnecting in ${state.retryMs} ms ${after}`);
    await new Promise((resolve) => setTimeout(resolve, state.retryMs));
  }
}

if (session.access === undefined) await login(args.email ?? 'alice@example.com', args.password ?? 'alice-password');
const orderId = args.order ?? process.env.ORDER_ID ?? (await placeOrder());
await follow(orderId);
