/**
 * No lost or doubled orders under load: 200 concurrent clients place orders for a bounded time,
 * retrying at random with the same Idempotency-Key: retries that race the first request, retries
 * after a response was lost (the client gave up on the connection), retries after success. Then
 * every key has exactly one order, paging sees each order once, and its totals match.
 *
 * Heap: the server runs in this process. Mocha cannot be started with --expose-gc here, so the
 * flag is set at runtime (v8.setFlagsFromString) and `gc` taken from a fresh context: a full GC
 * before each reading makes heapUsed comparable. New orders are kept by design (about a few
 * hundred bytes each in memory), so growth is measured per order while orders are placed, and a
 * last phase that only replays keys must leave the heap where it was.
 */
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import type { OrderRepository } from '@storefront/domain';
import { TYPES } from '../../src/identifiers.js';
import { availableProductIds, call, composeStorefront, newCustomer, sleep, type ComposedServer, type RawResponse } from './support.js';

const CLIENTS = 200;
const CUSTOMERS = 20;
const PLACE_MS = 2_000;
const REPLAY_MS = 1_500;
/** What a heap reading after full GCs may move by whatever was kept (docs/performance.md, "A faster day, and where the memory POST's cost sits"). */
const HEAP_NOISE_BYTES = 512 * 1024;

function exposeGc(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing !== undefined) return existing;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function heapAfterGc(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

interface KeyRecord {
  readonly token: string;
  readonly customer: number;
  readonly body: string;
  /** order ids seen in 201 answers for this key */
  readonly orderIds: Set<string>;
  /** 201 answers without Idempotent-Replayed */
  firstAnswers: number;
}

interface Tally {
  requests: number;
  replays: number;
  conflicts: number;
  abandoned: number;
  /** 503 `service_unavailable` with Retry-After: no pooled database connection came free in time */
  busy: number;
  unexpected: string[];
}

/** What the client does after an answer: stop, retry soon, or retry after the server's Retry-After. */
type Next = 'done' | 'retry' | 'retry-later';

const random = (n: number) => Math.floor(Math.random() * n);

function withLatency(orders: OrderRepository): OrderRepository {
  const later = <T>(work: () => Promise<T>) => sleep(random(3)).then(work);
  // Every write step of the port gets a little latency (so that racing retries interleave); reads none.
  return new Proxy(orders, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'listByCustomer') return value;
      return (...args: unknown[]) => later(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

describe('Orders under load', function () {
  this.timeout(60_000);
  let server: ComposedServer;
  let tokens: string[];
  let productIds: string[];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

  before(async () => {
    // The memory store answers within one tick, so two racing requests would simply take turns. A
    // store latency of a few milliseconds (what MongoDB adds) lets a retry arrive while the first
    // request holds the key, as it does in production.
    server = await composeStorefront({}, (container) => {
      if (!container.isBound(TYPES.MemoryAdapters)) return; // mongo or postgres mode (../mongo-mode.ts): the database has latency of its own
      container.rebind<OrderRepository>(TYPES.OrderRepository).toResolvedValue((memory: { orders: OrderRepository }) => withLatency(memory.orders), [TYPES.MemoryAdapters]);
    });
    productIds = await availableProductIds(server.url);
    tokens = [];
    for (let i = 0; i < CUSTOMERS; i += 1) tokens.push((await newCustomer(server, 'load')).tokens.access_token);
  });
  after(async () => {
    agent.destroy();
    await server?.close();
  });

  /** One POST /api/orders; `abandonAfterMs` gives up on it (closing the socket) like a client time-out. */
  function post(record: KeyRecord, key: string, abandonAfterMs?: number): Promise<RawResponse | 'abandoned'> {
    const url = new URL(server.url);
    return new Promise((resolve, reject) => {
      let abandoned = false;
      let settled = false;
      const settle = (outcome: RawResponse | 'abandoned' | Error) => {
        if (settled) return;
        settled = true;
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const req = http.request(
        {
          host: url.hostname,
          port: Number(url.port),
          method: 'POST',
          path: '/api/orders',
          agent: abandonAfterMs === undefined ? agent : false,
          headers: {
            authorization: `Bearer ${record.token}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(record.body),
            'idempotency-key': key,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            settle({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8'), ms: 0 });
          });
        },
      );
      const timer = setTimeout(() => req.destroy(new Error(`no answer within 10 s for key ${key}`)), 10_000);
      req.on('error', (error) => settle(abandoned ? 'abandoned' : error));
      req.on('close', () => {
        clearTimeout(timer);
        settle(abandoned ? 'abandoned' : new Error(`the connection closed without an answer for key ${key}`));
      });
      if (abandonAfterMs !== undefined) {
        setTimeout(() => {
          abandoned = true;
          req.destroy();
        }, abandonAfterMs);
      }
      req.end(record.body);
    });
  }

  function note(record: KeyRecord, key: string, res: RawResponse | 'abandoned', tally: Tally): Next {
    tally.requests += 1;
    if (res === 'abandoned') {
      tally.abandoned += 1;
      return 'retry';
    }
    if (res.status === 201) {
      const order = JSON.parse(res.text) as { order_id: string };
      record.orderIds.add(order.order_id);
      if (res.headers['idempotent-replayed'] === 'true') tally.replays += 1;
      else record.firstAnswers += 1;
      return 'done';
    }
    // A nervous client's retry races its own request: 201 (placed or replayed) and 409 in flight are both right.
    if (res.status === 409 && res.text.includes('idempotency_key_in_use')) {
      tally.conflicts += 1;
      return 'retry';
    }
    // A database pool busy past PG_TIMEOUT_MS refuses before the statement runs: the client comes back later.
    if (res.status === 503 && res.text.includes('service_unavailable') && res.headers['retry-after'] === '1') {
      tally.busy += 1;
      return 'retry-later';
    }
    tally.unexpected.push(`${key}: ${res.status} ${res.text.slice(0, 200)}`);
    return 'done';
  }

  /** Places the order of `key` until a 201 comes back, with the retries of a nervous client. */
  async function placeWithRetries(record: KeyRecord, key: string, tally: Tally): Promise<void> {
    const firstTry = random(10);
    const attempts: Promise<RawResponse | 'abandoned'>[] = [post(record, key, firstTry === 0 ? random(4) : undefined)];
    // A retry that races the first request, sent before any answer.
    if (firstTry <= 3) attempts.push(post(record, key));
    let outcomes = await Promise.all(attempts.map(async (attempt) => note(record, key, await attempt, tally)));
    for (let round = 0; !outcomes.includes('done'); round += 1) {
      if (round > 200) throw new Error(`key ${key} never got a 201`);
      await sleep(outcomes.includes('retry-later') ? 1_000 : 1 + random(5));
      outcomes = [note(record, key, await post(record, key), tally)];
    }
    // A retry after success (the client did not trust the first answer): a replay.
    if (random(4) === 0) note(record, key, await post(record, key), tally);
  }

  async function runClients(ms: number, keys: Map<string, KeyRecord>, phase: string, replayOnly: boolean): Promise<Tally> {
    const tally: Tally = { requests: 0, replays: 0, conflicts: 0, abandoned: 0, busy: 0, unexpected: [] };
    const deadline = performance.now() + ms;
    const existing = [...keys.entries()];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const customer = client % CUSTOMERS;
        for (let n = 0; performance.now() < deadline; n += 1) {
          if (replayOnly) {
            const [key, record] = existing[random(existing.length)]!;
            if (note(record, key, await post(record, key), tally) === 'retry-later') await sleep(1_000);
            continue;
          }
          const key = `${phase}-c${client}-n${n}`;
          const items = Array.from({ length: 1 + random(3) }, () => ({ product_id: productIds[random(productIds.length)]!, quantity: 1 + random(5) }));
          const record: KeyRecord = { token: tokens[customer]!, customer, body: JSON.stringify({ items }), orderIds: new Set(), firstAnswers: 0 };
          keys.set(key, record);
          await placeWithRetries(record, key, tally);
        }
      }),
    );
    return tally;
  }

  async function everyOrder(token: string): Promise<{ ids: string[]; total: number }> {
    const ids: string[] = [];
    let total = -1;
    for (let page: number | null = 1; page !== null; ) {
      const res = await call(server.url, `/api/orders?page=${page}&limit=100`, { token });
      expect(res.status, res.text).to.equal(200);
      const { meta, orders } = res.json as { meta: { total: number; next_page: number | null }; orders: { order_id: string }[] };
      if (total === -1) total = meta.total;
      expect(meta.total, 'total is the same on every page').to.equal(total);
      ids.push(...orders.map((order) => order.order_id));
      page = meta.next_page;
    }
    return { ids, total };
  }

  it('places exactly one order per Idempotency-Key among 200 clients retrying at random, pages totals equal to the count, and keeps the heap flat', async () => {
    const gc = exposeGc();
    const keys = new Map<string, KeyRecord>();

    const warmUp = await runClients(PLACE_MS, keys, 'a', false);
    const heapBefore = heapAfterGc(gc);
    const keysBefore = keys.size;
    const placing = await runClients(PLACE_MS, keys, 'b', false);
    const heapAfterPlacing = heapAfterGc(gc);
    const ordersPlaced = keys.size - keysBefore;
    const replaying = await runClients(REPLAY_MS, keys, 'c', true);
    const heapAfterReplaying = heapAfterGc(gc);

    const tallies = [warmUp, placing, replaying];
    const sum = (field: 'requests' | 'replays' | 'conflicts' | 'abandoned' | 'busy') => tallies.reduce((total, tally) => total + tally[field], 0);
    const perOrder = (heapAfterPlacing - heapBefore) / ordersPlaced;
    const replayGrowth = heapAfterReplaying - heapAfterPlacing;
    console.log(
      `      ${keys.size} keys, ${sum('requests')} requests (${sum('replays')} replays, ${sum('conflicts')} in-flight conflicts, ${sum('abandoned')} abandoned, ${sum('busy')} busy); ` +
        `heap +${Math.round(perOrder)} B per new order, ${(replayGrowth / 1024).toFixed(0)} KiB after ${replaying.requests} replays`,
    );

    expect([...warmUp.unexpected, ...placing.unexpected, ...replaying.unexpected], 'answers other than 201, 409 in use and 503 busy').to.deep.equal([]);
    // On PostgreSQL a fresh key's claim and order are one statement (KeyedOrderWrites): a retry waits
    // on the key's row and replays, so no request there ever finds the claim in flight.
    if (process.env['STOREFRONT_TEST_STORE'] !== 'postgres') {
      expect(sum('conflicts'), 'some retries raced a request in flight').to.be.greaterThan(0);
    }
    expect(sum('abandoned'), 'some first requests were abandoned').to.be.greaterThan(0);
    expect(replaying.replays, 'the last phase only replays').to.equal(replaying.requests - replaying.busy);

    for (const [key, record] of keys) {
      expect(record.orderIds.size, `order ids answered for ${key}`).to.equal(1);
      // 0 is right too: the request that placed the order may be one the client abandoned.
      expect(record.firstAnswers, `non-replayed 201s for ${key}`).to.be.at.most(1);
    }
    for (let customer = 0; customer < CUSTOMERS; customer += 1) {
      const expected = [...keys.values()].filter((record) => record.customer === customer).map((record) => [...record.orderIds][0]!);
      const { ids, total } = await everyOrder(tokens[customer]!);
      expect(new Set(ids).size, `customer ${customer}: no order listed twice`).to.equal(ids.length);
      expect(total, `customer ${customer}: meta.total`).to.equal(ids.length);
      expect([...ids].sort(), `customer ${customer}: the orders are exactly those of its keys`).to.deep.equal([...expected].sort());
    }

    // Orders are kept (the memory store; on a database, the event log's hour of events): a few KiB
    // each at most. Anything kept per request would show here. The collector's noise does not grow
    // with the orders placed, so it is allowed once: on a loaded machine that places only a few
    // hundred orders it would otherwise read as kilobytes an order.
    expect(heapAfterPlacing - heapBefore, 'heap growth while placing').to.be.below(4 * 1024 * ordersPlaced + HEAP_NOISE_BYTES);
    // Replays keep nothing: the heap after thousands of them is where it was (GC noise allowed).
    expect(replayGrowth, 'heap growth after the replay-only phase').to.be.below(4 * HEAP_NOISE_BYTES);
  });
});
