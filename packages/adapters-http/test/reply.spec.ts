import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import type { Context } from 'koa';
import { after, before, describe, it } from 'mocha';
import { JSON_TYPE, Reply, type ReplyBody, writeReply } from '../src/reply.js';

describe('Reply headers', () => {
  it('replaces and finds a header whatever the case of its name, keeping it where it was first set', () => {
    const reply = new Reply();
    reply.set('Content-Type', 'text/plain');
    reply.set('ETag', '"1"');
    reply.set('content-type', 'image/png');
    expect(reply.headers).to.deep.equal(['Content-Type', 'image/png', 'ETag', '"1"']);
    expect(reply.get('CONTENT-TYPE')).to.equal('image/png');
    expect(reply.get('etag')).to.equal('"1"');
    expect(reply.get('Content')).to.equal(undefined);
  });

  it('removes a header whatever its case, and removing an absent one changes nothing', () => {
    const reply = new Reply();
    reply.set('ETag', '"1"');
    reply.set('Cache-Control', 'no-store');
    reply.remove('Vary');
    expect(reply.headers).to.deep.equal(['ETag', '"1"', 'Cache-Control', 'no-store']);
    reply.remove('etag');
    expect(reply.headers).to.deep.equal(['Cache-Control', 'no-store']);
    expect(reply.get('ETag')).to.equal(undefined);
  });

  it('tells apart names of the same length that differ in more than the case of letters', () => {
    const reply = new Reply();
    reply.set('X-RateLimit-Limit', '100');
    reply.set('X-RateLimit-Reset', '1700000000');
    reply.set('X-Request-Id', 'r-1');
    reply.set('Content-Type', 'text/plain');
    expect(reply.headers).to.have.length(8);
    expect(reply.get('x-ratelimit-limit')).to.equal('100');
    expect(reply.get('X-RATELIMIT-RESET')).to.equal('1700000000');
    expect(reply.get('X_RateLimit-Limit')).to.equal(undefined);
    expect(reply.get('X-RateLimit-Limiu')).to.equal(undefined);
    // '^' and '~' (both allowed in a header name) differ by 0x20 as 'a' and 'A' do: only letters fold.
    reply.set('X-Mark^', '1');
    expect(reply.get('X-Mark~')).to.equal(undefined);
  });
});

interface Raw {
  readonly status: number;
  /** [name, value] as sent, names lower-cased. */
  readonly headers: [string, string][];
  readonly body: Buffer;
}

/** Makes a reply with these headers, status and body. */
const replyWith = (status: number, body?: ReplyBody, headers: [string, string][] = []) => (): Reply => {
  const reply = new Reply();
  for (const [name, value] of headers) reply.set(name, value);
  reply.send(status, body);
  return reply;
};

const header = (raw: Raw, name: string): string[] => raw.headers.filter(([n]) => n === name.toLowerCase()).map(([, v]) => v);

describe('writeReply on a real HTTP server', () => {
  let server: http.Server;
  let port: number;
  let makeReply: () => Reply = () => new Reply();
  const contexts: { respond: boolean }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      const ctx = { res, method: req.method, respond: true, writable: true };
      contexts.push(ctx);
      writeReply(ctx as unknown as Context, makeReply());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The bytes the server sends, read to the end of the connection. */
  function request(method: string, reply: () => Reply): Promise<Raw> {
    makeReply = reply;
    return new Promise<Raw>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(port, '127.0.0.1', () => socket.end(`${method} /x HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
      socket.setTimeout(2_000, () => socket.destroy(new Error('no complete answer within 2 s')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const all = Buffer.concat(chunks);
        const split = all.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
        const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]);
        resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: all.subarray(split + 4) });
      });
    });
  }

  it('sends an object as JSON with its Content-Type and its length in bytes, and tells Koa to write nothing', async () => {
    const body = { name: 'café', note: 'crème brûlée' };
    const raw = await request('GET', replyWith(200, body));
    expect(raw.status).to.equal(200);
    expect(header(raw, 'Content-Type')).to.deep.equal([JSON_TYPE]);
    expect(header(raw, 'Content-Length')).to.deep.equal([String(Buffer.byteLength(JSON.stringify(body)))]);
    expect(raw.body.length).to.equal(Buffer.byteLength(JSON.stringify(body)));
    expect(JSON.parse(raw.body.toString('utf8'))).to.deep.equal(body);
    expect(contexts.at(-1)!.respond).to.equal(false);
  });

  it('sends bytes with the Content-Type set on the reply, and only that one', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    const raw = await request('GET', replyWith(200, bytes, [['content-type', 'image/png']]));
    expect(header(raw, 'Content-Type')).to.deep.equal(['image/png']);
    expect(header(raw, 'Content-Length')).to.deep.equal(['6']);
    expect(raw.body.equals(bytes)).to.equal(true);
  });

  for (const status of [204, 304]) {
    it(`sends no body, Content-Type or Content-Length with a ${status}, even if set before`, async () => {
      const raw = await request(
        'GET',
        replyWith(status, { ignored: true }, [['Content-Type', 'text/plain'], ['Content-Length', '5'], ['ETag', '"v1"']]),
      );
      expect(raw.status).to.equal(status);
      expect(header(raw, 'Content-Type')).to.deep.equal([]);
      expect(header(raw, 'Content-Length')).to.deep.equal([]);
      expect(header(raw, 'ETag')).to.deep.equal(['"v1"']);
      expect(raw.body.length).to.equal(0);
    });
  }

  it("answers HEAD with the GET's Content-Length and Content-Type, and no body", async () => {
    const make = replyWith(200, { items: ['thé', 'café'] });
    const get = await request('GET', make);
    const head = await request('HEAD', make);
    expect(head.status).to.equal(200);
    expect(header(head, 'Content-Length')).to.deep.equal(header(get, 'Content-Length'));
    expect(header(head, 'Content-Length')).to.deep.equal([String(get.body.length)]);
    expect(header(head, 'Content-Type')).to.deep.equal([JSON_TYPE]);
    expect(head.body.length).to.equal(0);
  });

  it('sends every header set on the reply, in the order they were set', async () => {
    const raw = await request(
      'GET',
      replyWith(201, { id: 7 }, [['X-Request-Id', 'req-42'], ['X-Content-Type-Options', 'nosniff'], ['RateLimit-Remaining', '9'], ['ETag', '"abc"']]),
    );
    expect(raw.status).to.equal(201);
    const wanted = ['x-request-id', 'x-content-type-options', 'ratelimit-remaining', 'etag'];
    expect(raw.headers.filter(([name]) => wanted.includes(name))).to.deep.equal([
      ['x-request-id', 'req-42'],
      ['x-content-type-options', 'nosniff'],
      ['ratelimit-remaining', '9'],
      ['etag', '"abc"'],
    ]);
  });

  it('answers 500 with an empty body when nothing set a status', async () => {
    const raw = await request('GET', () => new Reply());
    expect(raw.status).to.equal(500);
    expect(header(raw, 'Content-Length')).to.deep.equal(['0']);
    expect(raw.body.length).to.equal(0);
  });
});
