/**
 * SseReader's reconnection, against a plain node:http server that ends each stream after a few
 * frames: what an EventSource does when a server restarts or drops its connections.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { afterEach, describe, it } from 'mocha';
import { SseReader } from '../src/index.js';

/** A server answering each GET with `frames(n, lastEventId)` (n counts from 0) and ending the stream. */
async function endingServer(frames: (n: number, lastEventId: string | undefined) => string): Promise<{ url: string; close(): Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const lastEventId = req.headers['last-event-id'];
    res.end(frames(n++, typeof lastEventId === 'string' ? lastEventId : undefined));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('SseReader', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('reconnects with the last event id once a stream ends, dropping a frame cut off by the end', async () => {
    const sent: (string | undefined)[] = [];
    const server = await endingServer((n, lastEventId) => {
      sent.push(lastEventId);
      return n === 0 ? 'id: 1\nevent: a\ndata: one\n\n: ping\n\nid: 2\nevent: a\ndata: two\n\nid: 9\nevent: a\ndata: cut' : `id: ${n + 2}\nevent: a\ndata: more\n\n`;
    });
    close = server.close;
    let refusals = 1;
    const reader = new SseReader(await fetch(server.url), {
      reconnectDelayMs: 10,
      // The first attempt is refused (null: tried again), as a server on its way back would.
      reconnect: async (lastEventId) => (refusals-- > 0 ? null : fetch(server.url, { headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId } })),
    });

    expect((await reader.events(3)).map((frame) => `${frame?.id}:${frame?.data}`)).to.deep.equal(['1:one', '2:two', '3:more']);
    expect(reader.lastEventId).to.equal('3');
    expect(reader.connections).to.equal(2);
    expect(sent).to.deep.equal([undefined, '2']);
    await reader.cancel();
  });

  it('ends, and stops reconnecting, once cancelled', async () => {
    const server = await endingServer(() => 'id: 1\ndata: x\n\n');
    close = server.close;
    let reconnections = 0;
    const reader = new SseReader(await fetch(server.url), {
      reconnectDelayMs: 10,
      reconnect: async () => {
        reconnections++;
        return fetch(server.url);
      },
    });
    expect((await reader.nextEvent())?.id).to.equal('1');
    await reader.cancel();
    expect(await reader.next()).to.equal(null);
    const after = reconnections;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reconnections).to.equal(after);
  });

  it('ends with the body when not told to reconnect', async () => {
    const server = await endingServer(() => 'id: 1\ndata: x\n\n');
    close = server.close;
    const reader = new SseReader(await fetch(server.url));
    expect((await reader.end()).map((frame) => frame.id)).to.deep.equal(['1']);
  });
});
