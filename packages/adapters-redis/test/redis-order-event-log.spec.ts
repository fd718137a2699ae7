/** The OrderEventLog contract on a real Redis (two instances on one prefix), and what is Redis's own: keys, TTLs, trimming at scale. */
import { anOrder, describeOrderEventLogContract, FakeClock, randomHex } from '@storefront/testing';
import type { OrderEventData } from '@storefront/domain/adapter-kit';
import { eventOfVersion, withoutDeliveryAddress } from '@storefront/domain/adapter-kit';
import type { Redis } from 'ioredis';
import { expect } from 'chai';
import { after, afterEach, before, describe, it } from 'mocha';
import { RedisOrderEventLog, type RedisOrderEventLogOptions } from '../src/index.js';
import { connect, startTestRedis, type TestRedis } from './redis-server.js';
import { aRefundedDeliveryOrder } from './paid-orders.js';

const DAY_MS = 24 * 3600_000;

/** Deletes every key under the prefix: the machine's Redis is shared, so each test cleans up its own. */
async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  const keys = await client.keys(`${prefix}*`);
  if (keys.length > 0) await client.del(...keys);
}

const aPrefix = (): string => `storefront-test:events:${randomHex(6)}:`;
const placed = (n: number): OrderEventData[] => Array.from({ length: n }, () => eventOfVersion(anOrder(), 1));

describe('RedisOrderEventLog', function () {
  let redis: TestRedis | null = null;
  let client: Redis | undefined;
  /** The peer's own connection: "another process". */
  let peerClient: Redis | undefined;

  before(async function () {
    this.timeout(120_000);
    redis = await startTestRedis();
    if (redis === null) return this.skip();
    client = connect(redis.url);
    peerClient = connect(redis.url);
  });
  after(async () => {
    client?.disconnect();
    peerClient?.disconnect();
    await redis?.stop();
  });

  describeOrderEventLogContract(
    'RedisOrderEventLog',
    async (window) => {
      const keyPrefix = aPrefix();
      const clock = new FakeClock();
      const log = new RedisOrderEventLog({ client: client!, keyPrefix, clock, ...window });
      const peer = new RedisOrderEventLog({ client: peerClient!, keyPrefix, clock, ...window });
      return {
        log,
        peer,
        clock,
        close: async () => {
          await Promise.all([log.close(), peer.close()]);
          await deleteKeys(client!, keyPrefix);
        },
      };
    },
    { shared: true },
  );

  describe('in Redis', () => {
    const prefixes: string[] = [];
    const logs: RedisOrderEventLog[] = [];
    const aLog = (options: Omit<RedisOrderEventLogOptions, 'client' | 'keyPrefix'> = {}): { log: RedisOrderEventLog; prefix: string } => {
      const prefix = aPrefix();
      const log = new RedisOrderEventLog({ client: client!, keyPrefix: prefix, ...options });
      prefixes.push(prefix);
      logs.push(log);
      return { log, prefix };
    };
    afterEach(async () => {
      await Promise.all(logs.splice(0).map((log) => log.close()));
      await Promise.all(prefixes.splice(0).map((prefix) => deleteKeys(client!, prefix)));
    });

    it('keeps its keys under the prefix: the head, the stream, and one record per order that expires in 24 h', async () => {
      const { log, prefix } = aLog();
      const event = placed(1)[0]!;
      await log.append([event]);
      expect((await client!.keys(`${prefix}*`)).sort()).to.deep.equal([`${prefix}head`, `${prefix}order:${event.orderId}`, `${prefix}stream`]);
      expect(await client!.xrange(`${prefix}stream`, '-', '+')).to.have.length(1).and.nested.property('[0][0]', '1-0');
      const ttl = await client!.pttl(`${prefix}order:${event.orderId}`);
      expect(ttl).to.be.greaterThan(DAY_MS - 60_000).and.at.most(DAY_MS);
    });

    it('trims by a binary search over the ids: entries old enough and beyond the newest `keepAtLeast`', async () => {
      const clock = new FakeClock();
      const { log, prefix } = aLog({ clock, keepAtLeast: 100, keepForMs: 150_000 });
      for (let minute = 0; minute < 5; minute++) {
        await log.append(placed(200));
        clock.advance(60_000);
      }
      // The last batch was appended at minute 4: those of minutes 0 and 1 (ids 1-400) are 150 s old or more.
      expect(await client!.xlen(`${prefix}stream`)).to.equal(600);
      expect(await log.readAfter('400', 1)).to.deep.include({ kind: 'events', more: true });
      expect(await log.readAfter('399', 1)).to.deep.equal({ kind: 'reset' });
    });

    it('keeps ids increasing when Redis lost the log: the next append starts above the highest id this instance saw', async () => {
      const { log, prefix } = aLog();
      await log.append(placed(5));
      await client!.del(`${prefix}head`, `${prefix}stream`);
      await log.append(placed(2));
      expect((await log.position()).head).to.equal('7');
      expect(await log.readAfter('5', 10)).to.deep.include({ kind: 'events', more: false });
    });

    it('recovers a lost head key from the stream: a new instance reads the last id, replays, and appends after it', async () => {
      const { log, prefix } = aLog();
      await log.append(placed(5));
      await client!.del(`${prefix}head`);
      const fresh = new RedisOrderEventLog({ client: client!, keyPrefix: prefix });
      logs.push(fresh);
      expect((await fresh.position()).head).to.equal('5');
      const replay = await fresh.readAfter('3', 10);
      expect(replay.kind === 'events' ? replay.events.map((e) => e.id) : replay).to.deep.equal(['4', '5']);
      await fresh.append(placed(2));
      expect((await client!.xrange(`${prefix}stream`, '-', '+')).map(([id]) => id)).to.deep.equal(['1-0', '2-0', '3-0', '4-0', '5-0', '6-0', '7-0']);
    });

    it('erases the delivery address from the order each order.refunded carries, as from order.placed', async () => {
      const { log } = aLog();
      const order = aRefundedDeliveryOrder();
      await log.append([1, 2, 3, 4].map((version) => eventOfVersion(order, version)));
      await log.eraseDeliveryAddresses(order.customerId);
      const erased = [1, 2, 3, 4].map((version, i) => ({ ...eventOfVersion(withoutDeliveryAddress(order), version), id: String(i + 1) }));
      const read = await log.readAfter('0', 10);
      expect(read).to.deep.equal({ kind: 'events', events: erased, more: false });
    });

    it('answers a limit above 1,000 in pages of 1,000', async () => {
      const { log } = aLog();
      await log.append(placed(1200));
      const page = await log.readAfter('0', 5000);
      expect(page.kind === 'events' && [page.events.length, page.more]).to.deep.equal([1000, true]);
    });
  });
});
