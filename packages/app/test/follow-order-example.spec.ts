/**
 * examples/follow-order.mjs run as written against a real server: it logs in as a demo customer,
 * places an order and follows it over Server-Sent Events while the kitchen moves the order to
 * completed. Between the example and the server sits a TCP relay of the test's, so that the test can
 * drop the example's connection like a flaky network would: once plainly (the example must
 * reconnect with Last-Event-ID and get the move made while it was away), once after the access
 * token expired (the domain's clock moved 16 minutes on: the reconnection is refused with 401 and
 * the example must refresh its token first).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { FakeClock } from '@storefront/testing';
import { expect } from 'chai';
import { after, before, describe, it } from 'mocha';
import { baseOf, call, startServer, type RunningServer } from './e2e/support.js';

const EXAMPLE = fileURLToPath(new URL('../../../../examples/follow-order.mjs', import.meta.url));
const KITCHEN = { email: 'kitchen@example.com', password: 'kitchen-password' } as const;

/** A loopback TCP relay to `target` whose connections the test can cut. */
interface Relay {
  readonly url: string;
  dropAll(): number;
  close(): Promise<void>;
}

function startRelay(target: URL): Promise<Relay> {
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const end = (): void => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        dropAll: () => {
          const n = pairs.size;
          for (const [client, upstream] of [...pairs]) {
            client.destroy();
            upstream.destroy();
          }
          pairs.clear();
          return n;
        },
        close: () =>
          new Promise<void>((done) => {
            for (const [client, upstream] of pairs) {
              client.destroy();
              upstream.destroy();
            }
            server.close(() => done());
          }),
      });
    });
  });
}

/** The example's output, line by line, and a way to wait for a line. */
class Output {
  readonly lines: string[] = [];
  private waiters: { match: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  private rest = '';

  constructor(child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (this.rest + chunk).split('\n');
      this.rest = parts.pop()!;
      for (const line of parts) {
        this.lines.push(line);
        for (const waiter of [...this.waiters]) {
          const m = waiter.match.exec(line);
          if (m !== null) {
            this.waiters = this.waiters.filter((w) => w !== waiter);
            waiter.resolve(m);
          }
        }
      }
    });
  }

  /** The first line matching, already printed or to come. */
  line(match: RegExp, timeoutMs = 10_000): Promise<RegExpMatchArray> {
    for (const line of this.lines) {
      const m = match.exec(line);
      if (m !== null) return Promise.resolve(m);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no line ${match} within ${timeoutMs} ms; output:\n${this.lines.join('\n')}`)), timeoutMs);
      this.waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
    });
  }
}

describe('examples/follow-order.mjs', function () {
  this.timeout(40_000);
  const clock = new FakeClock(Date.now());
  let server: RunningServer;
  let relay: Relay;
  let child: ChildProcess | undefined;

  before(async () => {
    server = await startServer({}, { clock });
    relay = await startRelay(new URL(baseOf(server)));
  });
  after(async () => {
    if (child?.exitCode === null) child.kill('SIGKILL');
    await relay?.close();
    await server?.close();
  });

  it('prints every status once through a dropped connection and an expired token, and exits 0 when completed', async () => {
    const base = baseOf(server);
    const kitchenToken = async (): Promise<string> => (await call(base, '/api/auth/login', { json: KITCHEN })).body.access_token as string;
    let kitchen = await kitchenToken();
    const move = async (orderId: string, status: string): Promise<void> => {
      const moved = await call(base, `/api/staff/orders/${orderId}/status`, { token: kitchen, json: { status } });
      expect(moved.status, `move to ${status}: ${moved.text}`).to.equal(200);
    };

    child = spawn(process.execPath, [EXAMPLE, '--url', relay.url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    const out = new Output(child);

    const [, orderId] = await out.line(/^following (ord_\S+) at /);
    await out.line(/^status: placed \(version 1\)$/);
    await move(orderId!, 'accepted');
    await out.line(/^status: accepted \(version 2\)$/);

    // The network drops: the move made meanwhile comes with the replay after Last-Event-ID.
    expect(relay.dropAll()).to.be.at.least(1);
    await move(orderId!, 'preparing');
    await out.line(/^stream dropped .*; reconnecting in 3000 ms after event \d+$/);
    await out.line(/^status: preparing \(version 3\)$/);

    // Sixteen minutes on, the access token has expired: the reconnection is refused until refreshed.
    clock.advance(16 * 60_000);
    kitchen = await kitchenToken();
    expect(relay.dropAll()).to.be.at.least(1);
    await move(orderId!, 'ready');
    await out.line(/^token refreshed$/);
    await out.line(/^status: ready \(version 4\)$/);

    await move(orderId!, 'completed');
    const code = await exited;
    expect(code, `exit code; stderr:\n${stderr}\noutput:\n${out.lines.join('\n')}`).to.equal(0);
    const statuses = out.lines.filter((line) => line.startsWith('status: '));
    expect(statuses).to.deep.equal([
      'status: placed (version 1)',
      'status: accepted (version 2)',
      'status: preparing (version 3)',
      'status: ready (version 4)',
      'status: completed (version 5)',
    ]);
    expect(out.lines.at(-1)).to.equal('done: completed');
    expect(out.lines.filter((line) => line === 'token refreshed')).to.have.length(1);
    expect(out.lines.filter((line) => line.startsWith('reset'))).to.deep.equal([]);
  });
});
